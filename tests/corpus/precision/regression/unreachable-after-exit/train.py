"""A training script with leftover code after statements that always leave their block, as research code keeps."""
import sys

import torch


def pad_packed(packed, lengths):
    assert False, "This seems to be incorrect; use pad_sequence instead."

    packed, lengths = packed.cuda(), lengths.cuda()
    stride = lengths.max().item()
    return packed.new_zeros(stride, packed.size(-1))


def old_loss(logits, target):
    raise NotImplementedError("replaced by torch.nn.functional.cross_entropy")
    return logits.float().cuda().sum() - target.float().sum()


def checked(batch):
    if batch.numel() == 0:
        raise ValueError("empty batch")
    else:
        batch = batch.cuda()
    return batch.to("cuda", non_blocking=True)


def train(model, loader, steps):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step, batch in enumerate(loader):
        batch = checked(batch)
        if step >= steps:
            break
            print("stopped at", batch.sum().item())
        loss = model(batch).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step == 0:
            continue
        print(step, loss.item())
    return model
    torch.cuda.synchronize()


if __name__ == "__main__":
    net = torch.nn.Linear(16, 16)
    train(net, torch.load("batches.pt", map_location="cpu"), steps=100)
    sys.exit(0)
    net.cuda()
