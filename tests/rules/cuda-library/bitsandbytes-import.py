"""QLoRA fine-tuning setup."""
import torch
# expect: cuda-library.bitsandbytes-import
import bitsandbytes as bnb
# expect: cuda-library.bitsandbytes-import
from bitsandbytes.optim import PagedAdamW8bit
# ok: cuda-library.bitsandbytes-import
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def build(model_name, lr=2e-4):
    quant = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
    model = AutoModelForCausalLM.from_pretrained(model_name, quantization_config=quant)
    optimizer = PagedAdamW8bit(model.parameters(), lr=lr)
    return model, optimizer, bnb.nn.Linear4bit


def optional_8bit_adam(params, lr):
    try:
        # ok: cuda-library.bitsandbytes-import
        from bitsandbytes.optim import AdamW8bit
    except ImportError:
        return torch.optim.AdamW(params, lr=lr)
    return AdamW8bit(params, lr=lr)
