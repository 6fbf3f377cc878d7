import torch

from .plugin import BasePlugin


class QuantizationPlugin(BasePlugin):
    pass


@QuantizationPlugin("bnb").register()
def quantize_with_bnb(init_kwargs: dict, bits: int = 4) -> dict:
    from transformers import BitsAndBytesConfig

    init_kwargs["quantization_config"] = BitsAndBytesConfig(load_in_4bit=bits == 4, load_in_8bit=bits == 8)
    return init_kwargs


@QuantizationPlugin("none").register()
def no_quantization(init_kwargs: dict, bits: int = 16) -> dict:
    init_kwargs["torch_dtype"] = torch.bfloat16
    return init_kwargs
