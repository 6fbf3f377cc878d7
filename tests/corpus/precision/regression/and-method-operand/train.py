import torch
from torch import nn

from model import PretrainWrapper


def main():
    model = PretrainWrapper(nn.Linear(64, 64))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loader = torch.utils.data.DataLoader(torch.load("x.pt", map_location="cpu"), batch_size=16, drop_last=True)
    for x in loader:
        loss = model(x)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
