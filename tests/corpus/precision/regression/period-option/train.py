import torch

from vislib.detector import Detector


def main(backbone, head, loader, world_size: int = 1):
    model = Detector(backbone, head)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02)
    if world_size > 1:
        torch.cuda.set_device(torch.distributed.get_rank())
    for images, targets in loader:
        losses = model(images, targets)
        loss = sum(losses.values())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
