"""Builds fused kernels that exist only as CUDA sources."""
from setuptools import setup

# expect-medium: cuda-extension.cpp-extension-import  (the build below needs nvcc on every host)
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fusedkern",
    ext_modules=[CUDAExtension("fusedkern._C", ["csrc/bindings.cpp", "csrc/kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
