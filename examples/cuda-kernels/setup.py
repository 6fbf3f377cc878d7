"""Builds the fused rotary-embedding CUDA extension (fused_rope_cuda)."""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

NVCC_FLAGS = [
    "-O3",
    "--use_fast_math",
    "-gencode=arch=compute_80,code=sm_80",
    "-gencode=arch=compute_90,code=sm_90",
]

setup(
    name="moe-gpt",
    version="0.3.0",
    py_modules=["data", "kernels", "model", "train"],
    ext_modules=[
        CUDAExtension(
            name="fused_rope_cuda",
            sources=["csrc/fused_rope.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": NVCC_FLAGS},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
