"""JIT-built kernels for the attention block; sources are listed in a variable."""
import glob
import os

import torch.utils.cpp_extension as cpp_ext
from torch.utils.cpp_extension import load

csrc = os.path.join(os.path.dirname(__file__), "csrc")
sources = sorted(glob.glob(os.path.join(csrc, "*.cpp"))) + sorted(glob.glob(os.path.join(csrc, "*.cu")))

# expect: cuda-extension.cuda-flags-extension-build
attn_ext = load(name="attn_ext", sources=sources, extra_cuda_cflags=["-O3", "-lineinfo"], verbose=False)
# expect: cuda-extension.cuda-flags-extension-build
rope_ext = cpp_ext.load("rope_ext", sources, extra_cflags=["-O3"], extra_cuda_cflags=["--use_fast_math"])
# ok: cuda-extension.cuda-flags-extension-build
pack_ext = load(name="pack_cpu", sources=[os.path.join(csrc, "pack.cpp")], extra_cflags=["-O3"])
# ok: cuda-extension.cuda-flags-extension-build
ln_ext = load(name="ln", sources=["ln.cpp", "ln_kernel.cu"], extra_cuda_cflags=["-O3"])
