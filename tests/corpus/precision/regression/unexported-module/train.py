import torch

from model.ops import fused_gelu
from model.ops.rms import rms_norm
from model.patch.monkey import apply


def main():
    model = torch.nn.Linear(16, 16)
    apply(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = rms_norm(fused_gelu(model(torch.randn(4, 16)))).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
