import torch


def setup_device(rank):
    torch.cuda.set_device(rank)
    return torch.device("cuda", rank)


def train_loop(model, loader, optimizer):
    for batch in loader:
        loss = model(batch).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
