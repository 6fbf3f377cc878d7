"""Helpers of a two-phase LoRA run (cloneofsimo/lora's lora_diffusion/lora.py shape)."""
import torch


@torch.no_grad()
def inspect_lora(model):
    moved = {}
    for name, module in model.named_modules():
        if module.__class__.__name__ == "LoraInjectedLinear":
            weight = module.lora_up.weight @ module.lora_down.weight
            moved[name] = weight.abs().mean().item()
    return moved
