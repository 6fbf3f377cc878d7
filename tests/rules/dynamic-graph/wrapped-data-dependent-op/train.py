import torch

from boxlib.sampling import BoxHead, ImageDataset


def main(items):
    model = BoxHead(256, 81)
    loader = torch.utils.data.DataLoader(ImageDataset(items), batch_size=8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, labels in loader:
        loss, _ = model(x, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
