import torch
import triton


@triton.jit
def _combine_kernel(x_ptr):
    pass


class FastDispatcher(torch.nn.Module):
    def forward(self, x):
        _combine_kernel[(1,)](x)
        return x


class StandardDispatcher(torch.nn.Module):
    def forward(self, x):
        return x


def make_dispatcher(dim: int, comm_backend: str):
    if comm_backend == "fast":
        return FastDispatcher()
    elif comm_backend == "standard":
        return StandardDispatcher()
    raise ValueError(comm_backend)


def make_experts(dim: int, comm_backend: str):
    return make_dispatcher(dim, comm_backend=comm_backend)


def model_registry(flavor: str, moe_comm_backend: str = "standard"):
    return torch.nn.Sequential(make_experts(64, comm_backend=moe_comm_backend))
