import torch
from torch.utils.cpp_extension import load


class RWKVResidualLayer(torch.nn.Module):
    def __init__(self, neox_args, layer_number):
        super().__init__()
        self.wkv = load(name="wkv6", sources=["cuda/wkv6_op.cpp", "cuda/wkv6_cuda.cu"], extra_cuda_cflags=["-O3"])
        self.proj = torch.nn.Linear(neox_args.hidden_size, neox_args.hidden_size)

    def forward(self, x):
        return self.wkv.forward(self.proj(x))
