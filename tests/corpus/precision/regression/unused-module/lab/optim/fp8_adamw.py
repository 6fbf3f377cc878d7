"""An FP8 AdamW kept from an experiment: nothing builds it."""
import qoptim_cuda
import torch


class CoatAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                qoptim_cuda.fp8_adamw_step(p, p.grad, group["lr"])
                torch.cuda.synchronize()
