import torch

from soap import Preconditioner, next_batch


def main():
    model = torch.nn.Linear(64, 64)
    optimizer = Preconditioner(model.parameters())
    loader = torch.utils.data.DataLoader(torch.load("data.pt", map_location="cpu"), batch_size=16, drop_last=True)
    it = iter(loader)
    for step in range(1000):
        inputs, targets = next_batch(it, loader)
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
