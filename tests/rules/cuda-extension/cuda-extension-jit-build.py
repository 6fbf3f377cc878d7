"""Fused Adam built with torch.utils.cpp_extension.load at import time."""
import json
import os

from torch.utils.cpp_extension import load

_here = os.path.dirname(__file__)

# expect: cuda-extension.cuda-extension-jit-build
fused_adam = load(name="fused_adam", sources=["csrc/fused_adam.cpp", "csrc/fused_adam_kernel.cu"], verbose=False)

# expect: cuda-extension.cuda-extension-jit-build
rms_norm = load("rms_norm", [os.path.join(_here, "csrc", "rms_norm_kernel.cu")], extra_cflags=["-O3"])

# ok: cuda-extension.cuda-extension-jit-build
cpu_ops = load(name="cpu_ops", sources=["csrc/cpu_ops.cpp"])

with open(os.path.join(_here, "kernels.json")) as f:
    # ok: cuda-extension.cuda-extension-jit-build
    kernel_table = json.load(f)
