from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

setup(
    name="pkg",
    ext_modules=[
        CUDAExtension("fused_dense_lib", ["csrc/fused_dense.cpp", "csrc/fused_dense_cuda.cu"]),
        CUDAExtension(name="pkg._C", sources=["csrc/attn.cpp", "csrc/attn_kernel.cu"]),
        CppExtension("host_ops", ["csrc/host_ops.cpp"]),
    ],
    cmdclass={"build_ext": BuildExtension},
)
