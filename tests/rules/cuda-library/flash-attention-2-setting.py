"""QLoRA fine-tune setup that builds from_pretrained's keyword arguments as a dict."""
import torch
from transformers import AutoConfig, AutoModelForCausalLM


def create_model(args):
    model_kwargs = {"torch_dtype": torch.bfloat16, "trust_remote_code": True}
    # expect: cuda-library.flash-attention-2-setting
    model_kwargs["attn_implementation"] = "flash_attention_2"
    return AutoModelForCausalLM.from_pretrained(args.model_name_or_path, **model_kwargs)


def create_portable_model(args):
    model_kwargs = {}
    # ok: cuda-library.flash-attention-2-setting
    model_kwargs["attn_implementation"] = "sdpa"
    config = AutoConfig.from_pretrained(args.model_name_or_path)
    # expect: cuda-library.flash-attention-2-setting
    config._attn_implementation = "flash_attention_2"
    # ok: cuda-library.flash-attention-2-setting
    config.hidden_dropout = 0.0
    return AutoModelForCausalLM.from_pretrained(args.model_name_or_path, config=config, **model_kwargs)


def create_optional(args):
    model_kwargs = {}
    if args.use_flash_attn:
        # expect-low: cuda-library.flash-attention-2-setting
        model_kwargs["attn_implementation"] = "flash_attention_2"
    return AutoModelForCausalLM.from_pretrained(args.model_name_or_path, **model_kwargs)


class Args:
    use_flash_attn: bool = False
    model_name_or_path: str = "meta-llama/Llama-3.2-1B"
