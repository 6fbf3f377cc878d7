"""Training entry point with DeepSpeed ZeRO-3."""
import argparse

import torch
# expect: cuda-library.deepspeed-import
import deepspeed
# expect: cuda-library.deepspeed-import
from deepspeed.ops.adam import FusedAdam

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # ok: cuda-library.deepspeed-import
    from deepspeed.runtime.engine import DeepSpeedEngine

# ok: cuda-library.deepspeed-import
from torch.distributed.fsdp import FullyShardedDataParallel


def main():
    parser = argparse.ArgumentParser()
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = torch.nn.Linear(1024, 1024)
    optimizer = FusedAdam(model.parameters(), lr=1e-4)
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
    return engine


def save_modules(module):
    for _, param in module.named_parameters():
        # DeepSpeed ZeRO-3 partitions parameters and gives them `ds_*` attributes: this runs only under ZeRO-3.
        if param.numel() == 0 and hasattr(param, "ds_numel"):
            # expect-low: cuda-library.deepspeed-import
            import deepspeed

            return deepspeed.zero.GatheredParameters(module.parameters(), modifier_rank=0)
    return None


def gather_if_sharded(module):
    if hasattr(module, "weight"):
        # expect-high: cuda-library.deepspeed-import
        import deepspeed.comm


def lm_head_gather_context(accelerator, model):
    # The rest runs only when neither disjunct holds: a DeepSpeed plugin is configured (ZeRO-3).
    deepspeed_plugin = accelerator.state.deepspeed_plugin
    if deepspeed_plugin is None or deepspeed_plugin.zero_stage != 3:
        return None
    # expect-low: cuda-library.deepspeed-import
    import deepspeed

    return deepspeed.zero.GatheredParameters([model.lm_head.weight])


def gather_head(model, head):
    if model is None or head is None:
        return None
    # expect-high: cuda-library.deepspeed-import
    import deepspeed.runtime


class Strategy:
    def __init__(self, args):
        self.args = args
        self.ring_size = getattr(args, "ring_size", 1)
        self.stage = args.zero_stage

    def setup_ring(self):
        # Off unless --ring_size is raised: getattr's own default is 1.
        if self.ring_size == 1:
            return
        # expect-low: cuda-library.deepspeed-import
        import deepspeed.sequence

    def setup_zero(self):
        if self.stage == 0:
            return
        # expect-high: cuda-library.deepspeed-import
        import deepspeed.zero
