import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

KEEP_GPU_BUILD = os.getenv("SCANLIB_KEEP_GPU_BUILD", "FALSE") == "TRUE"
BUILD_HOST_OPS = os.getenv("SCANLIB_BUILD_HOST_OPS", "TRUE") == "TRUE"

ext_modules = []
if KEEP_GPU_BUILD:
    ext_modules.append(CUDAExtension("scanlib_gpu", ["csrc/scan.cpp", "csrc/scan_kernel.cu"]))
if os.environ.get("SCANLIB_FORCE_GPU", "0") == "1":
    ext_modules.append(CUDAExtension("scanlib_forced", ["csrc/scan.cpp", "csrc/scan_kernel.cu"]))
if BUILD_HOST_OPS:
    ext_modules.append(CUDAExtension("scanlib_ops", ["csrc/ops.cpp", "csrc/ops_kernel.cu"]))

setup(name="scanlib", ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
