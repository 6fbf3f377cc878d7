import torch
import torch.nn.functional as F
from torch import nn


class VectorBankLinear(nn.Module):
    def __init__(self, in_features, out_features, num_vectors=256, vector_length=64, topk=2):
        super().__init__()
        self.base = nn.Linear(in_features, out_features)
        self.bank = nn.Parameter(torch.randn(num_vectors, vector_length))
        self.logits_A = nn.Parameter(torch.zeros(in_features // vector_length, num_vectors))
        self.topk = topk

    def _delta(self):
        if self.logits_A.sum() == 0:
            raise RuntimeError("the vector-bank logits were never initialised")
        weights, idx = self.logits_A.topk(self.topk, dim=-1)
        return (F.softmax(weights, dim=-1).unsqueeze(-1) * self.bank[idx]).sum(-2)

    def forward(self, x):
        delta = self._delta().flatten()
        if delta.norm() > 1e3:
            delta = delta / delta.norm()
        return self.base(x) + x[..., : delta.numel()] @ delta.unsqueeze(-1).expand(-1, self.base.out_features)


def train(model, loader, optimizer):
    for batch in loader:
        loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    model = VectorBankLinear(256, 256)
    train(model, [torch.randn(4, 256)], torch.optim.AdamW(model.parameters()))
