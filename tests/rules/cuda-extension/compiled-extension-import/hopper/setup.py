from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

PACKAGE_NAME = "fused_attn_3"
BUILD_TAG = os.environ.get("BUILD_TAG", "dev")

setup(
    name=PACKAGE_NAME,
    ext_modules=[
        CUDAExtension(name=f"{PACKAGE_NAME}._C", sources=["attn.cpp", "attn_kernel.cu"]),
        CUDAExtension(name=f"{BUILD_TAG}_kernels", sources=["tagged.cu"]),
    ],
    cmdclass={"build_ext": BuildExtension},
)
