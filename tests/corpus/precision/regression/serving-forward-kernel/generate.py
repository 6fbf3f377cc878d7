"""Greedy generation with the decoder: no training here."""
import torch
from model import Decoder


@torch.inference_mode()
def generate(model, x, steps):
    for _ in range(steps):
        x = torch.cat([x, model(x)[:, -1:]], dim=1)
    return x


if __name__ == "__main__":
    print(generate(Decoder().eval(), torch.randn(1, 4, 64), 8).shape)
