import torch


class LowRankAdamW(torch.optim.AdamW):
    @torch.no_grad()
    def step(self, closure=None):
        return super().step(closure)
