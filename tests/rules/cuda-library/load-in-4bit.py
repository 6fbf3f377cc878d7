"""4-bit base model for adapter training."""
from transformers import AutoModelForCausalLM


def load(name):
    # expect: cuda-library.load-in-4bit
    model = AutoModelForCausalLM.from_pretrained(name, load_in_4bit=True, device_map="auto")
    return model


def load_full(name):
    # ok: cuda-library.load-in-4bit
    return AutoModelForCausalLM.from_pretrained(name, torch_dtype="bfloat16")
