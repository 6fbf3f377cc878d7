"""A low-rank adapter whose delta weight is stored as a sparse COO tensor."""
import torch
from torch import nn


class SparseDelta(nn.Module):
    def __init__(self, base: nn.Linear, nnz: int):
        super().__init__()
        self.base = base
        out_f, in_f = base.weight.shape
        self.rows = nn.Parameter(torch.randint(0, out_f, (nnz,)), requires_grad=False)
        self.cols = nn.Parameter(torch.randint(0, in_f, (nnz,)), requires_grad=False)
        self.values = nn.Parameter(torch.zeros(nnz))

    def delta(self):
        idx = torch.stack([self.rows, self.cols])
        # expect: operator-support.unsupported-op
        return torch.sparse_coo_tensor(idx, self.values, self.base.weight.shape).coalesce()

    def forward(self, x):
        d = self.delta()
        # expect: operator-support.unsupported-op
        y = torch.sparse.mm(d, x.T).T
        # ok: operator-support.unsupported-op   (dense matmul is supported)
        z = torch.matmul(x, self.base.weight.T)
        # ok: operator-support.unsupported-op   (a slice's .indices(), not a sparse tensor's)
        start, stop, step = slice(0, 4).indices(8)
        return y + z


def train(model, batches, opt):
    for x, target in batches:
        loss = (model(x) - target).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
