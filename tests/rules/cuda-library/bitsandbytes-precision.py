import lightning as L
import torch
from lightning.fabric.plugins import BitsandbytesPrecision
from lightning.fabric.plugins.precision import HalfPrecision


def setup(quantize, precision):
    plugins = None
    if quantize is not None and quantize.startswith("bnb."):
        # expect: cuda-library.bitsandbytes-precision
        plugins = BitsandbytesPrecision(quantize[4:], torch.bfloat16)
    else:
        # ok: cuda-library.bitsandbytes-precision
        plugins = HalfPrecision("bf16-true")
    return L.Fabric(devices=1, precision=None if plugins else precision, plugins=plugins)
