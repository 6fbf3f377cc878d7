import glob

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

sources = ["csrc/fftk.cpp"] + glob.glob("csrc/**/*.cu", recursive=True)

setup(
    name="fftk",
    ext_modules=[CUDAExtension("fftk_cuda", sources=sources)],
    cmdclass={"build_ext": BuildExtension},
)
