"""Wraps an optimizer for automatic mixed precision; built through a factory classmethod."""
import torch


class AMPOptimizer:
    def __init__(self, cfg, params, inner):
        self.inner = inner
        self._grad_scaler = torch.cuda.amp.GradScaler(init_scale=cfg.init_scale)

    @classmethod
    def build_optimizer(cls, cfg, params):
        inner = torch.optim.AdamW(params, lr=cfg.lr)
        return cls(cfg, params, inner)

    def step(self):
        self._grad_scaler.step(self.inner)
        self._grad_scaler.update()
