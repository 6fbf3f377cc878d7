"""Parity training with batches from generators (x-transformers' train_parity.py)."""
import torch
from torch import nn

BATCH_SIZE = 32


def cycle(length):
    while True:
        seq = torch.randint(0, 2, (BATCH_SIZE, length)).cuda()
        labels = seq.cumsum(dim=-1) % 2
        yield seq, labels


def warmup_batches(length):
    yield torch.zeros(BATCH_SIZE, length).cuda()


model = nn.Sequential(nn.Embedding(2, 64), nn.Linear(64, 2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
train_dl = cycle(64)
warmup = warmup_batches(64)
first = next(warmup)

for step in range(10000):
    seq, labels = next(train_dl)
    loss = nn.functional.cross_entropy(model(seq).transpose(1, 2), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
