import glob

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

sources = glob.glob("det/csrc/**/*.cpp", recursive=True)
extension = CppExtension
if torch.cuda.is_available() and CUDA_HOME is not None:
    extension = CUDAExtension
    sources += glob.glob("det/csrc/**/*.cu", recursive=True)

setup(
    name="det",
    ext_modules=[extension("det._C", sources)],
    cmdclass={"build_ext": BuildExtension},
)
