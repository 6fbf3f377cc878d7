import torch

from seglib.model import PanopticNet


def main(backbone, loader):
    model = PanopticNet(backbone, 19)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    model.train()
    for images, targets in loader:
        losses = model(images, targets)
        loss = sum(losses.values())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
