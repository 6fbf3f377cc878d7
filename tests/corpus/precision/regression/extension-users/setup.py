from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

ext_modules = [
    CUDAExtension("segkit._C", ["segkit/csrc/components.cu"]),
    CUDAExtension("segkit._ops", ["segkit/csrc/fused_norm.cu"]),
    CUDAExtension("segkit._window", ["segkit/csrc/window_shift.cu"]),
]

setup(
    name="segkit",
    packages=find_packages(),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension},
)
