import os

import torch
from torch.utils.cpp_extension import load

try:
    print("MODEL_TYPE", os.environ["MODEL_TYPE"])
except KeyError:
    os.environ["MODEL_TYPE"] = ""

if "mamba" in os.environ["MODEL_TYPE"]:
    from mamba_ssm import Mamba

if os.environ["TRAIN_KERNEL"] == "fused":
    wkv_cuda = load(name="wkv", sources=["cuda/wkv_op.cpp", "cuda/wkv_cuda.cu"], verbose=True)

if os.environ["HEAD_SIZE"] == "256":
    wide_cuda = load(name="wide", sources=["cuda/wide_op.cpp", "cuda/wide_cuda.cu"], verbose=True)


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        if "mamba" in os.environ["MODEL_TYPE"]:
            self.mix = Mamba(d_model=dim, d_state=16)
        else:
            self.mix = torch.nn.Linear(dim, dim)

    def forward(self, x):
        return self.mix(x)
