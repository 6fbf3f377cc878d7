import torch

from model import Wrapper


def main():
    model = Wrapper()
    optim = torch.optim.Adam(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("x.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        loss = model(x)
        loss.backward()
        optim.step()
        optim.zero_grad()


if __name__ == "__main__":
    main()
