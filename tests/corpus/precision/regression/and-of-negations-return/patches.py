import torch


def patch_moe_experts(model, cfg):
    """Swaps the experts' linear layers for 4-bit ones; only a quantized-experts run asks for it."""
    if not cfg.quantize_experts and not cfg.target_expert_params:
        return model
    import bitsandbytes as bnb

    for name, module in model.named_children():
        if isinstance(module, torch.nn.Linear):
            setattr(model, name, bnb.nn.Linear4bit(module.in_features, module.out_features))
    return model


def patch_kernels(model, cfg):
    """Compiles the fused kernels unless both switches are off (`--compile_kernels` is on by default)."""
    if not cfg.compile_kernels and not cfg.fused_moe:
        return model
    torch.cuda.synchronize()
    return model
