"""Builds its ops with CUDA when CUDA is there (or FORCE_CUDA=1), for the CPU otherwise."""
import glob
import os

import torch
from setuptools import setup

# expect: cuda-extension.cpp-extension-import  (low in a scan: its only use is the guarded switch; precision/regression/guarded-extension-build)
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    sources = glob.glob("csrc/**/*.cpp", recursive=True)
    extension = CppExtension
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += glob.glob("csrc/**/*.cu", recursive=True)
    return [extension("boxops._C", sources)]


setup(name="boxops", ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
