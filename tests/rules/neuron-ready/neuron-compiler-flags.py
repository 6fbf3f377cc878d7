"""Compiler flags set before the first compilation."""
import os

# expect: neuron-ready.neuron-compiler-flags
os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"
# ok: neuron-ready.neuron-compiler-flags
os.environ["NEURON_RT_STOCHASTIC_ROUNDING_EN"] = "1"


def configure(flags):
    # expect: neuron-ready.neuron-compiler-flags
    os.environ["NEURON_CC_FLAGS"] = " ".join(flags)
    # ok: neuron-ready.neuron-compiler-flags
    current = os.environ.get("NEURON_CC_FLAGS", "")
    return current
