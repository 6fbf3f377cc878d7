import torch

from ops.ring import Block


def main():
    model = Block(64).to("cuda")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    cu_seqlens = torch.tensor([0, 8, 16], device="cuda")
    for _ in range(10):
        x = torch.randn(16, 64, device="cuda")
        lse = torch.randn(2, 4, 16, device="cuda")
        loss = model(x, lse, cu_seqlens).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
