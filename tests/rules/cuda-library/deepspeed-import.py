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
