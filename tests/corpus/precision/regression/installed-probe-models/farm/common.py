import importlib.util

import transformers


def flash_attn_is_installed():
    return importlib.util.find_spec("flash_attn") is not None


def make_generative_lm(model_name_or_path, flash_attn=True, **kwargs):
    if flash_attn and flash_attn_is_installed():
        from .flash_models import flash_llama

        model_cls = flash_llama.LlamaForCausalLM
    else:
        model_cls = transformers.LlamaForCausalLM
    return model_cls.from_pretrained(model_name_or_path, **kwargs)
