import torch
from torch import nn

from moelib.routing import should_use_grouped_gemm


class Experts(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n, dim, dim) * 0.02)
        self.use_grouped = should_use_grouped_gemm()

    def forward(self, x, counts):
        if self.use_grouped:
            from moelib.permute import aligned_counts

            counts = aligned_counts(counts)
            return torch._grouped_mm(x, self.w, offs=counts.cumsum(0))
        outs = [x_i @ w_i for x_i, w_i in zip(x.split(counts.tolist()), self.w)]
        return torch.cat(outs)


def fast_path_scale(x):
    if should_use_grouped_gemm():
        return x.to("cuda") * 2
    return x * 2
