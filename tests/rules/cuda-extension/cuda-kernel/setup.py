from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_softmax",
    ext_modules=[CUDAExtension("fused_softmax_cuda", ["fused_softmax.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
