from bitsandbytes.optim.optimizer import Optimizer2State

import torch


class LowRankAdamW8bit(Optimizer2State):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__("adam", params, lr, betas, eps, weight_decay, 8)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and "rank" in group:
                    p.grad.mul_(group["rank"] / p.shape[0])
        return super().step(closure)
