from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="gptqlib",
    packages=find_packages(),
    ext_modules=[CUDAExtension("gptqlib_cuda", ["csrc/gptq_kernel.cu", "csrc/gptq.cpp"])],
    cmdclass={"build_ext": BuildExtension},
    install_requires=["torch", "peft", "bitsandbytes"],
)
