"""Launcher of an XLA training script."""
import os

import torch.distributed as dist
import torch_xla.distributed.xla_multiprocessing as xmp


def _mp_fn(index, args):
    return index


if __name__ == "__main__":
    if os.environ.get("WORLD_SIZE"):
        # ok: neuron-ready.legacy-xla-spawn
        dist.init_process_group("neuron")
        _mp_fn(0, None)
    else:
        # expect: neuron-ready.legacy-xla-spawn
        xmp.spawn(_mp_fn, args=(None,))
