import argparse

import torch
from torch import nn

from quant_utils import dequantize_module_weight, gather_stats


def init_adapter(base, rank=8):
    weight = dequantize_module_weight(base)
    u, s, v = torch.linalg.svd(weight.float(), full_matrices=False)
    return nn.Parameter(u[:, :rank] * s[:rank]), nn.Parameter(v[:rank])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log_weight_stats", action="store_true")
    args = parser.parse_args()
    base = nn.Linear(64, 64)
    a, b = init_adapter(base)
    optimizer = torch.optim.AdamW([a, b], lr=1e-4)
    for step in range(100):
        x = torch.randn(8, 64)
        loss = (base(x) + x @ b.t() @ a.t()).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if args.log_weight_stats:
            print(gather_stats(a))
    print(gather_stats(b))


if __name__ == "__main__":
    main()
