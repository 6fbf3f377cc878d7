from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_kernels",
    ext_modules=[
        CUDAExtension(
            name="scaled_masked_softmax_cuda",
            sources=["scaled_masked_softmax.cpp", "scaled_masked_softmax_cuda.cu"],
        ),
        CUDAExtension(
            name="fused_bias_gelu_cuda",
            sources=["fused_bias_gelu.cpp", "fused_bias_gelu_cuda.cu"],
        ),
    ],
    cmdclass={"build_ext": BuildExtension},
)
