"""Trains the model; `--override-imports` loads opt-in override modules by name."""
import argparse

import torch
from torch.utils.data import DataLoader

from trainer.loader import import_overrides


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--override-imports", nargs="*", default=[])
    args = parser.parse_args()
    import_overrides(args.override_imports)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.RMSNorm(64))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = DataLoader(torch.load("tokens.pt"), batch_size=16, drop_last=True)
    for batch in loader:
        loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
