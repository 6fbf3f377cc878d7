import argparse

import torch
from torch import nn

from offload import offload_hidden_states, prefetch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--activation_offloading", default=None, choices=["hidden_states", "all"])
    parser.add_argument("--prefetch_mode", default="sync")
    parser.add_argument("--world_size", type=int, default=1)
    cfg = parser.parse_args()
    model = nn.Linear(64, 64)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        x = torch.randn(8, 64)
        x = prefetch(cfg, offload_hidden_states(cfg, x))
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
