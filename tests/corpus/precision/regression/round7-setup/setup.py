"""Builds the box ops for CUDA when it is there (or FORCE_CUDA=1), for the CPU otherwise."""
import glob
import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    sources = glob.glob("csrc/*.cpp")
    extension = CppExtension
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += glob.glob("csrc/*.cu")
    return [extension("boxops._C", sources)]


setup(name="boxops", packages=find_packages(), ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
