import torch
from torch import nn


def _restore_order(data, axes):
    front = [a for a in range(data.dim()) if a not in axes]
    order = torch.argsort(torch.tensor(front + list(axes))).tolist()
    return data.permute(order)


class MaskHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Conv2d(dim, 1, 1)

    def forward(self, features, masks):
        logits = self.proj(_restore_order(features, (1,)))
        sizes = torch.tensor([m.shape[-1] for m in masks])
        for size in torch.unique(sizes).tolist():
            picked = torch.where(sizes == size)[0]
            logits = logits + picked.numel()
        on_device = torch.tensor([m.shape[-1] for m in masks], device=logits.device)
        keep = torch.where(on_device > 1)
        scale = logits.mean().item()
        return logits / scale, keep


class BlockDropout(nn.Module):
    """Drops a random block of channels; the block index is drawn on the host."""

    def __init__(self, blocks, p):
        super().__init__()
        self.blocks = blocks
        self.p = p

    def forward(self, x):
        if not self.training:
            return x
        block = torch.randint(0, self.blocks, (1,)).item()
        width = x.shape[1] // self.blocks
        x = torch.cat([x[:, : block * width], x[:, block * width :] * (1 - self.p)], dim=1)
        noise = torch.randint(0, self.blocks, (1,), device=x.device).item()
        return x + noise
