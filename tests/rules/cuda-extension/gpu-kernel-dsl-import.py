"""Low-level GPU helpers."""
# expect: cuda-extension.gpu-kernel-dsl-import
import cutlass.cute as cute
# expect: cuda-extension.gpu-kernel-dsl-import
import pycuda.autoinit
# expect: cuda-extension.gpu-kernel-dsl-import
from numba import cuda
# expect: cuda-extension.gpu-kernel-dsl-import
from cuda.bindings import driver

# ok: cuda-extension.gpu-kernel-dsl-import
import numba
# ok: cuda-extension.gpu-kernel-dsl-import
from torch.backends import cudnn

try:
    # ok: cuda-extension.gpu-kernel-dsl-import
    import tilelang
except ImportError:
    tilelang = None


def device_count():
    return cuda.gpus.lst.__len__() if cuda.is_available() else 0
