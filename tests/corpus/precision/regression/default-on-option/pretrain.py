from typing import Literal, Optional

import torch
from torch import nn

from ssmlib.block import ScanBlock


def training_step(model, batch):
    return model(batch).pow(2).mean()


def setup(steps: int = 10, compiler: Optional[Literal["jit", "torch"]] = "jit", backend: Literal["eager", "torch"] = "torch"):
    model = nn.Sequential(ScanBlock(64))
    step = torch.jit.script(training_step) if compiler == "jit" else torch.compile(training_step)
    fast_step = torch.compile(training_step) if backend == "torch" else training_step
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(steps):
        batch = torch.randn(8, 16, 64)
        loss = step(model, batch) + fast_step(model, batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    setup()
