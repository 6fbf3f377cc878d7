import torch
from torch import nn

from model import Decoder

generate_every = 500
validate_every = 100


def divisible_by(num, den):
    return (num % den) == 0


def cycle(loader):
    while True:
        for batch in loader:
            yield batch


def train():
    model = Decoder(num_tokens=256, dim=512).cuda()
    optim = torch.optim.Adam(model.parameters(), lr=1e-4)
    train_loader = cycle(torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=4, drop_last=True))
    val_loader = cycle(torch.utils.data.DataLoader(torch.load("valid.pt"), batch_size=4, drop_last=True))
    for i in range(100000):
        model.train()
        loss = model(next(train_loader).cuda())
        loss.backward()
        print(f"training loss: {loss.item()}")
        optim.step()
        optim.zero_grad()

        if divisible_by(i, validate_every):
            model.eval()
            with torch.no_grad():
                valid_loss = model(next(val_loader).cuda())
                print(f"validation loss: {valid_loss.item():.4f}")

        if divisible_by(i, generate_every):
            model.eval()
            prime = next(val_loader)[0, :64].cuda()
            sample = model.generate(prime[None, :], 256)
            print(sample.shape)


if __name__ == "__main__":
    train()
