"""setup.py of a package with CUDA kernels."""
import os

# expect-medium: cuda-extension.cpp-extension-import  (nothing in this file uses it: the import keeps its severity)
from torch.utils.cpp_extension import (
    BuildExtension,
    CUDA_HOME,
    CUDAExtension,
)
# ok: cuda-extension.cpp-extension-import
from torch.utils.cpp_extension import CppExtension

# ok: cuda-extension.cpp-extension-import
from setuptools import setup

# ok: cuda-extension.cpp-extension-import
from torch.utils.cpp_extension import CUDA_HOME as _cuda_home  # an environment probe, reported at low

if CUDA_HOME is None:
    raise RuntimeError("nvcc is required")
