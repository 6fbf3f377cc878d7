"""CUDA names used as values: aliases, type checks, arguments, exception types."""
import inspect

import torch
import torch.nn as nn

# expect: cuda-api.cuda-runtime-reference
autocast = torch.cuda.amp.autocast if torch.__version__ < "2.4" else torch.amp.autocast


def is_cuda_float(t):
    # expect: cuda-api.cuda-runtime-reference
    return isinstance(t, torch.cuda.FloatTensor)


def pool_supports_symmetric(allocator):
    # expect: cuda-api.cuda-runtime-reference
    return "symmetric" in inspect.signature(torch.cuda.MemPool).parameters


def train_step(model, batch, optimizer):
    try:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
    # expect: cuda-api.cuda-runtime-reference
    except torch.cuda.OutOfMemoryError:
        optimizer.zero_grad()


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        # ok: cuda-api.cuda-runtime-reference
        self.norm = nn.LayerNorm(dim)
        # ok: cuda-api.cuda-runtime-reference
        self.dtype = torch.bfloat16
