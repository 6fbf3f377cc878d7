import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

ext_modules = [
    # expect: cuda-extension.cuda-extension-setup
    CUDAExtension(
        name="fused_ops._C",
        sources=["csrc/bindings.cpp", "csrc/layer_norm_kernel.cu", "csrc/softmax_kernel.cu"],
        extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
    ),
    # ok: cuda-extension.cuda-extension-setup
    CppExtension(name="fused_ops._cpu", sources=["csrc/cpu_bindings.cpp"]),
]

if os.environ.get("BUILD_SPARSE_ATTN", "0") == "1":
    # expect: cuda-extension.cuda-extension-setup
    ext_modules.append(CUDAExtension("fused_ops._sparse", ["csrc/sparse_attn.cu"]))

setup(
    name="fused-ops",
    version="0.3.0",
    packages=find_packages(),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension},
    install_requires=["torch>=2.1"],
)
