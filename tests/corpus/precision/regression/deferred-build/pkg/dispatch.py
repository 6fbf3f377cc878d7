from dataclasses import dataclass

import torch
import triton

from pkg.configurable import Configurable


@triton.jit
def _combine_kernel(x_ptr):
    pass


def launch_combine(x):
    _combine_kernel[(1,)](x)
    return x


class StandardDispatcher(Configurable):
    @dataclass(kw_only=True)
    class Config(Configurable.Config):
        top_k: int = 2

    def __init__(self, config):
        self.config = config

    def dispatch(self, x):
        torch.cuda.synchronize()
        return x


class FastDispatcher(StandardDispatcher):
    @dataclass(kw_only=True)
    class Config(StandardDispatcher.Config):
        num_sms: int = 16

    def dispatch(self, x):
        x = torch.ops.fast_ep.dispatch(x)
        return launch_combine(x)


def dispatcher_config(comm_backend: str):
    if comm_backend == "fast":
        return FastDispatcher.Config(num_sms=8)
    elif comm_backend == "standard":
        return StandardDispatcher.Config()
    raise ValueError(comm_backend)


class MoE(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dispatcher = config.build()

    def forward(self, x):
        return self.dispatcher.dispatch(x)


def model_registry(flavor: str, moe_comm_backend: str = "standard"):
    return MoE(dispatcher_config(moe_comm_backend))


class Workspace:
    """Only ever made by itself: no construction outside the class says anything about a gate."""

    def __init__(self, size):
        self.size = size

    def grown(self):
        torch.cuda.synchronize()
        return Workspace(self.size * 2)
