from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="research_kernels",
    ext_modules=[
        CUDAExtension("rotary_cuda", ["csrc/rotary.cu"]),
        CUDAExtension("moe_dispatch_cuda", ["csrc/moe_dispatch.cu"]),
        CUDAExtension("fused_adam_cuda", ["csrc/fused_adam.cu"]),
    ],
    cmdclass={"build_ext": BuildExtension},
)
