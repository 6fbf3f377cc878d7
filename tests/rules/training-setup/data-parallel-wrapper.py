"""Wraps the model for distributed training."""
import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.nn.parallel import DistributedDataParallel as DDP


def wrap(model, strategy, local_rank):
    if strategy == "fsdp":
        # expect: training-setup.data-parallel-wrapper
        return FSDP(model, use_orig_params=True)
    if strategy == "ddp":
        # expect: training-setup.data-parallel-wrapper
        return DDP(model, device_ids=[local_rank])
    # ok: training-setup.data-parallel-wrapper
    return model.to(torch.device("cpu"))
