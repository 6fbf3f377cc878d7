import argparse

import torch
from torch import nn

from megatron import fused_kernels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank", type=int, default=0)
    args = parser.parse_args()
    fused_kernels.load(args)
    norm = fused_kernels.load_norm(args)
    model = nn.Linear(1024, 1024)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("tokens.pt"), batch_size=8, drop_last=True)
    for batch in loader:
        loss = norm.forward(model(batch)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
