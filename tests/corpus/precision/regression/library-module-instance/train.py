import torch
from flash_attn.losses.cross_entropy import CrossEntropyLoss

from kernels.attention import Block


def main():
    model = torch.nn.Sequential(Block(64, 4), torch.nn.Linear(64, 100))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loss_func = CrossEntropyLoss(inplace_backward=True)
    for step in range(1000):
        x = torch.randn(8, 128, 64)
        labels = torch.randint(0, 100, (8, 128))
        logits = model(x)
        loss = loss_func(logits.view(-1, 100), labels.view(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
