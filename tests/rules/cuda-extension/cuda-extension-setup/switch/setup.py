"""Builds CUDA ops when CUDA is there (or FORCE_CUDA=1), the same ops for the CPU otherwise."""
import glob
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    sources = glob.glob("csrc/**/*.cpp", recursive=True)
    extension = CppExtension
    define_macros = []
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += glob.glob("csrc/**/*.cu", recursive=True)
        define_macros += [("WITH_CUDA", None)]
    return [
        # expect-low: cuda-extension.cuda-extension-setup
        extension("boxops._C", sources, define_macros=define_macros)
    ]


def get_gpu_only_extensions():
    build = CUDAExtension
    return [
        # expect: cuda-extension.cuda-extension-setup
        build("boxops._gpu", ["csrc/gpu_only.cu"])
    ]


setup(name="boxops", ext_modules=get_extensions() + get_gpu_only_extensions(), cmdclass={"build_ext": BuildExtension})
