import torch
from torch import nn


class Adapter(nn.Module):
    def __init__(self, dim, rank=8):
        super().__init__()
        self.down = nn.Linear(dim, rank, bias=False)
        self.up = nn.Linear(rank, dim, bias=False)

    def forward(self, x):
        return x + self.up(self.down(x))


if __name__ == "__main__":
    # A quick memory check of the adapter on its own.
    adapter = Adapter(1024).cuda()
    optimizer = torch.optim.AdamW(adapter.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler()
    for step in range(10):
        x = torch.randn(4, 1024).cuda()
        with torch.cuda.amp.autocast():
            loss = adapter(x).square().mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(step, torch.cuda.max_memory_allocated())
