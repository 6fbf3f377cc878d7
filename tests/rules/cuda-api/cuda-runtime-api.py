"""Training utilities with CUDA runtime calls no specific rule names."""
import random

import numpy as np
import torch
from torch.cuda import MemPool


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    # ok: cuda-api.cuda-runtime-api
    torch.manual_seed(seed)
    # ok: cuda-api.cuda-runtime-api
    torch.cuda.manual_seed_all(seed)  # cuda-api.cuda-seeding reports this line


def make_pool(allocator):
    # expect: cuda-api.cuda-runtime-api
    return MemPool(allocator)


def train(model, loader, optimizer):
    # expect: cuda-api.cuda-runtime-api
    torch.cuda.set_sync_debug_mode("warn")
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        # ok: cuda-api.cuda-runtime-api
        torch.cuda.synchronize()  # cuda-api.cuda-synchronize reports this line
    # expect: cuda-api.cuda-runtime-api
    return torch.cuda.ipc_collect(), torch.cuda.is_initialized()


def cast_like_apex(args):
    # expect: cuda-api.cuda-runtime-api
    return torch.cuda.amp.autocast_mode._cast(args, torch.bfloat16)
