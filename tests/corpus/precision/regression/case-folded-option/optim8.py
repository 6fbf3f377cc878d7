import torch


class Adam8bitLike(torch.optim.Optimizer):
    """An 8-bit optimizer whose step waits for the device after each update."""

    def __init__(self, params, lr=1e-3):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])
        torch.cuda.synchronize()


class FusedAdamLike(torch.optim.Optimizer):
    """A fused Adam that synchronises after each update."""

    def __init__(self, params, lr=1e-3):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])
        torch.cuda.synchronize()
