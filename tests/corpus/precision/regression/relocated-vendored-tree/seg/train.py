import torch
import torch.nn.functional as F

from seg.models import SegNet


def main():
    model = SegNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    data = torch.load("segments.pt", map_location="cpu")
    loader = torch.utils.data.DataLoader(data, batch_size=8, drop_last=True)
    for images, masks in loader:
        loss = F.cross_entropy(model(images), masks)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
