"""setup.py helper that picks the extension type (detectron2 style)."""
import glob
import os

import torch
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension


def get_extensions():
    sources = glob.glob("csrc/**/*.cpp", recursive=True)
    source_cuda = glob.glob("csrc/**/*.cu", recursive=True)
    # ok: cuda-extension.cuda-extension-switch
    extension = CppExtension
    define_macros = []
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        # expect: cuda-extension.cuda-extension-switch
        extension = CUDAExtension
        sources += source_cuda
        define_macros += [("WITH_CUDA", None)]
    return [extension("mypkg._C", sources, define_macros=define_macros)]


def get_kernels_ext(with_cuda):
    # expect: cuda-extension.cuda-extension-switch
    ext = CUDAExtension if with_cuda else CppExtension
    return ext("mypkg._kernels", ["csrc/kernels.cpp"])


# expect: cuda-extension.cuda-extension-switch
Extension = CUDAExtension
