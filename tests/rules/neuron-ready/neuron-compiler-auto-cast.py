"""Mixed precision set through the Neuron compiler's flags."""
import os

from optimum.neuron.utils import set_neuron_cc_flag


def configure(mode):
    if mode == "autocast":
        # expect: neuron-ready.neuron-compiler-auto-cast
        set_neuron_cc_flag("--auto-cast", "none")
    # expect: neuron-ready.neuron-compiler-auto-cast
    os.environ.setdefault("NEURON_CC_FLAGS", "--auto-cast=none --model-type=transformer")
    # ok: neuron-ready.neuron-compiler-auto-cast
    set_neuron_cc_flag("--model-type", "transformer")


def report(logger, auto_cast):
    # ok: neuron-ready.neuron-compiler-auto-cast
    logger.info(f"Using Neuron: --auto-cast {auto_cast}")
    # ok: neuron-ready.neuron-compiler-auto-cast
    print("pass --auto-cast=none to keep fp32 matmuls")
