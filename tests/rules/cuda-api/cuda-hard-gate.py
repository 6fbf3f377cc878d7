import torch
import torch.distributed as dist


def setup(rank):
    # expect: cuda-api.cuda-hard-gate
    assert torch.cuda.is_available(), "this trainer needs a GPU"
    # expect: cuda-api.cuda-hard-gate
    if not torch.cuda.is_available():
        raise RuntimeError("CUDA is required")
    torch.cuda.set_device(rank)


def pick_backend():
    # expect: cuda-api.cuda-hard-gate
    if torch.cuda.is_available():
        return "nccl"
    else:
        raise NotImplementedError("only CUDA is supported")


def portable_device():
    # ok: cuda-api.cuda-hard-gate
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def check_shapes(x):
    # ok: cuda-api.cuda-hard-gate
    assert x.dim() == 3, "expected (batch, seq, dim)"
    # ok: cuda-api.cuda-hard-gate
    if not dist.is_initialized():
        raise RuntimeError("call init first")
