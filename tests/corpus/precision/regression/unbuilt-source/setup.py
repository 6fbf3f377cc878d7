import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

this_dir = os.path.dirname(os.path.abspath(__file__))

setup(
    name="fftk",
    ext_modules=[
        CUDAExtension(
            "fftk_cuda",
            sources=["csrc/fftk.cpp", "csrc/fftk_cuda.cu"],
            include_dirs=[os.path.join(this_dir, "csrc", "mathlib", "include")],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
