"""Builds the box ops with CUDA when CUDA is there (or FORCE_CUDA=1), as C++ ops otherwise."""
import glob
import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    sources = glob.glob("boxops/csrc/**/*.cpp", recursive=True)
    extension = CppExtension
    define_macros = []
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += glob.glob("boxops/csrc/**/*.cu", recursive=True)
        define_macros += [("WITH_CUDA", None)]
    return [extension("boxops._C", sources, define_macros=define_macros)]


setup(
    name="boxops",
    packages=find_packages(),
    ext_modules=get_extensions(),
    cmdclass={"build_ext": BuildExtension},
)
