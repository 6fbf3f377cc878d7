import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def quantization_config(bits):
    return BitsAndBytesConfig(load_in_4bit=bits == 4, bnb_4bit_compute_dtype=torch.bfloat16)


def load_base(name, bits=4):
    # ok: cuda-library.lock-in-library-call
    config = quantization_config(bits)
    return AutoModelForCausalLM.from_pretrained(name, quantization_config=config)


def load_plain(name):
    return AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16)


def fused_norm(x, weight):
    # a custom op (cuda-extension.lock-in-call reports its callers), not a library
    return torch.ops.mylib.fused_norm(x, weight)
