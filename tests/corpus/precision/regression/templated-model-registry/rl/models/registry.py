import importlib

_MODELS = {"LlamaForCausalLM": ("llama", ("ParallelLlamaForCausalLM", "ParallelLlamaForValue"))}


def load_model_cls(arch, value=False):
    if arch not in _MODELS:
        return None
    megatron = "megatron"
    module_name, class_names = _MODELS[arch]
    module = importlib.import_module(f"rl.models.{module_name}.{megatron}.modeling_{module_name}_megatron")
    return getattr(module, class_names[1 if value else 0], None)
