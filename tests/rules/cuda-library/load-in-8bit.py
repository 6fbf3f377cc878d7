"""alpaca-lora style 8-bit base model."""
import torch
from transformers import LlamaForCausalLM


def load(base_model, device_map):
    # expect: cuda-library.load-in-8bit
    return LlamaForCausalLM.from_pretrained(base_model, load_in_8bit=True, torch_dtype=torch.float16, device_map=device_map)


def load_bf16(base_model):
    # ok: cuda-library.load-in-8bit
    return LlamaForCausalLM.from_pretrained(base_model, load_in_8bit=False, torch_dtype=torch.bfloat16)
