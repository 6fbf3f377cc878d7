import torch


def setup_device(rank):
    torch.cuda.set_device(rank)
    return torch.device("cuda", rank)


def train_loop(model, loader, optimizer, accumulate=2):
    for step, batch in enumerate(loader):
        (model(batch).sum() / accumulate).backward()
        if (step + 1) % accumulate == 0:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
