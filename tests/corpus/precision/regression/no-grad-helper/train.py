"""A fine-tune that re-initialises adapter weights without gradients before training."""
import sys

import torch


@torch.no_grad()
def init_adapter_weights(model, scale):
    for param in model.parameters():
        noise = torch.randn(param.shape, device="cuda") * scale
        param.add_(noise.to(param.device))


@torch.no_grad()
def measure_loss(model, batches):
    losses = [model(batch).float().pow(2).mean() for batch in batches]
    return torch.stack(losses).mean()


def main(steps=100):
    model = torch.nn.Linear(16, 16).cuda()
    init_adapter_weights(model, 0.02)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batches = [torch.randn(4, 16, device="cuda") for _ in range(8)]
    for step in range(int(steps)):
        loss = model(batches[step % 8]).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(measure_loss(model, batches))


if __name__ == "__main__":
    main(*sys.argv[1:])
