"""A kernel library's own build in a subfolder: the names it declares are the repo's build products."""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

setup(
    name="fused_mlp_lib",
    ext_modules=[
        CUDAExtension(name="fused_mlp_lib", sources=["fused_dense.cpp", "fused_dense_cuda.cu"]),
        CUDAExtension("amp_C", ["amp_C_frontend.cpp", "multi_tensor_adam.cu"]),
        CppExtension("host_pack", ["host_pack.cpp"]),
    ],
    cmdclass={"build_ext": BuildExtension},
)
