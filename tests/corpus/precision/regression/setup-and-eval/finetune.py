import sys

import torch
from utils import evaluate, parse_devices


def main(devices="auto"):
    world = parse_devices(devices)
    model = torch.nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4 * world)
    loader = [torch.randn(4, 8) for _ in range(8)]
    for step, batch in enumerate(loader):
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 4 == 0:
            evaluate(model, loader, devices)


if __name__ == "__main__":
    main(*sys.argv[1:])
