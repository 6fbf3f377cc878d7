"""A train() that builds everything once, then runs one train_epoch() per epoch (InternImage's main_deepspeed.py)."""
import torch
from torch import nn


def train_epoch(model, optimizer, loader, epoch):
    model.train()
    for idx, (samples, targets) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(samples.cuda()), targets.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, idx, loss.item())


def train(epochs, loader):
    device = torch.device("cuda:0")
    model = nn.Linear(32, 10)
    model.cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        train_epoch(model, optimizer, loader, epoch)
        torch.save(model.state_dict(), f"epoch{epoch}.pt")
    return model.to(device)


if __name__ == "__main__":
    train(10, torch.load("batches.pt", map_location="cpu"))
