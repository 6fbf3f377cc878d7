"""SFT with transformers on GPUs."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(args):
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    # expect: cuda-library.flash-attention-2-implementation
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16, attn_implementation="flash_attention_2")
    # ok: cuda-library.flash-attention-2-implementation
    ref = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16, attn_implementation="sdpa")
    return tokenizer, model, ref
