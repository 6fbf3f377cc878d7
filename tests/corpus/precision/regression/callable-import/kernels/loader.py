import ctypes

import torch

from . import _C
from .paths import determine_cuda_runtime_lib_path


def load_runtime():
    path = determine_cuda_runtime_lib_path()
    return ctypes.CDLL(str(path)) if path else None


def rms_norm(x, weight, eps=1e-6):
    return _C.rms_norm(x, weight, eps)
