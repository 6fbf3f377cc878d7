import importlib
import os

from torch.utils.cpp_extension import load

_here = os.path.dirname(__file__)
SOURCES = [os.path.join(_here, name) for name in ("rope.cpp", "rope_kernel.cu")]

_rope = load(name="rope_ext", sources=SOURCES, extra_cuda_cflags=["-O3", "--use_fast_math"])
_cpu = load(name="pack_cpu", sources=[os.path.join(_here, "pack.cpp")])


def _load_ext():
    return importlib.import_module(__package__ + "._ext")


def apply_rope(x, cos, sin):
    # expect: cuda-extension.extension-call
    return _rope.forward(x, cos, sin)


def pack(x):
    # ok: cuda-extension.extension-call
    return _cpu.pack(x)


def gelu(x):
    ext = _load_ext()
    # expect: cuda-extension.extension-call
    y = ext.gelu_forward(x)
    # expect: cuda-extension.extension-call
    return _load_ext().scale(y, 2.0)
