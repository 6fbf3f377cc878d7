"""Optimizer factory."""
import torch


def build_optimizer(model, cfg):
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    groups = [{"params": decay, "weight_decay": cfg.wd}, {"params": no_decay, "weight_decay": 0.0}]
    if cfg.fused:
        # expect: cuda-api.fused-optimizer
        return torch.optim.AdamW(groups, lr=cfg.lr, betas=(0.9, 0.95), fused=True)
    # ok: cuda-api.fused-optimizer
    return torch.optim.AdamW(groups, lr=cfg.lr, betas=(0.9, 0.95), fused=False)


def build_sgd(params):
    # expect: cuda-api.fused-optimizer
    return torch.optim.SGD(params, lr=0.1, momentum=0.9, fused=True)
