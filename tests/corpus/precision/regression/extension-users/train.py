import argparse

import torch

from segkit.model import SegModel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fused-window", action="store_true")
    args = parser.parse_args()
    model = SegModel(fused_window=args.fused_window).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        x = torch.randn(8, 64, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
