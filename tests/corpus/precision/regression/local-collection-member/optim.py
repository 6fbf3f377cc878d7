import torch


def create_optimizer(model, optimizer_cls=torch.optim.AdamW, lr=1e-4):
    optimizer = optimizer_cls(model.parameters(), lr=lr)
    eight_bit_names = ["Adam8bit", "AdamW8bit", "PagedAdam8bit", "PagedAdamW8bit"]
    if optimizer_cls.__name__ in eight_bit_names:
        import bitsandbytes

        manager = bitsandbytes.optim.GlobalOptimManager.get_instance()
        for module in model.modules():
            if isinstance(module, torch.nn.Embedding):
                manager.register_module_override(module, "weight", {"optim_bits": 32})
    return optimizer


def create_fused_optimizer(model, kind="fused", lr=1e-4):
    fused_kinds = ("fused", "fused_adam")
    if kind in fused_kinds:
        from apex.optimizers import FusedAdam

        return FusedAdam(model.parameters(), lr=lr)
    return torch.optim.AdamW(model.parameters(), lr=lr)
