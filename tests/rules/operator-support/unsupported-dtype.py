"""MoE router and RoPE written against float64 and complex tensors."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
    t = torch.arange(end)
    freqs = torch.outer(t, freqs)
    # expect-info: operator-support.unsupported-dtype   (once, at construction)
    return torch.polar(torch.ones_like(freqs), freqs)


class Router(nn.Module):
    def __init__(self, dim, n_experts):
        super().__init__()
        self.gate = nn.Linear(dim, n_experts)
        self.register_buffer("freqs_cis", precompute_freqs_cis(dim, 128))

    def forward(self, x):
        logits = self.gate(x)
        # expect: operator-support.unsupported-dtype
        probs = F.softmax(logits, dim=-1, dtype=torch.float64)
        # expect: operator-support.unsupported-dtype
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        # ok: operator-support.unsupported-dtype   (view_as_real reads the complex value flagged above)
        rotated = torch.view_as_real(xc * self.freqs_cis[: x.shape[1]]).flatten(-2)
        # expect: operator-support.unsupported-dtype
        acc = logits.double().sum()
        # expect: operator-support.unsupported-dtype
        spec = x.to(torch.complex64)
        # ok: operator-support.unsupported-dtype   (float32 is a NeuronCore type)
        y = x.to(torch.float32)
        # ok: operator-support.unsupported-dtype   (a dtype named, no float64 tensor made)
        eps = torch.finfo(torch.float64).eps
        return probs.float() @ rotated.mT + acc.float() + spec.real.sum() + y.sum() + eps


class Features(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        # expect-info: operator-support.unsupported-dtype   (host-side data code)
        return torch.tensor(self.rows[i], dtype=torch.float64).float()


def train(model, loader, opt):
    for x in loader:
        loss = model(x).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


def main(rows):
    model = Router(64, 8)
    opt = torch.optim.AdamW(model.parameters())
    train(model, torch.utils.data.DataLoader(Features(rows), batch_size=4, drop_last=True), opt)


if __name__ == "__main__":
    main([[0.0] * 64] * 16)
