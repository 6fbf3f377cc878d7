import importlib
import sys

import torch
from torch import nn

from trainers import ScaledTrainer, SimpleTrainer


def main(patches, amp=True):
    model = nn.Linear(8, 8)
    for name in patches:
        model = getattr(importlib.import_module("plugins"), name)(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer = (ScaledTrainer if amp else SimpleTrainer)(model, optimizer)
    for _ in range(10):
        trainer.run_step(torch.randn(4, 8))


if __name__ == "__main__":
    main(sys.argv[1:])
