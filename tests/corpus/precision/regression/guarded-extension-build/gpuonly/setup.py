"""Fused kernels that exist only as CUDA sources."""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fusedkern",
    ext_modules=[CUDAExtension("fusedkern._C", ["csrc/bindings.cpp", "csrc/fused_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
