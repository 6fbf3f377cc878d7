"""Builds a CPU-only C++ helper at import time."""
# expect: cuda-extension.cpp-extension-toolchain-import
import torch.utils.cpp_extension
# expect: cuda-extension.cpp-extension-toolchain-import
from torch.utils.cpp_extension import CppExtension, load
# ok: cuda-extension.cpp-extension-toolchain-import
from torch.utils.data import DataLoader


def collect_env_info():
    # expect: cuda-extension.cpp-extension-toolchain-import
    from torch.utils.cpp_extension import CUDA_HOME

    return {"CUDA_HOME": CUDA_HOME}

_ext = load(name="tokenizer_ops", sources=["csrc/tokenizer_ops.cpp"])
