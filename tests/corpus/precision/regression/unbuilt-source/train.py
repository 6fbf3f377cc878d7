import torch

from fftk.conv import LongConv


def main():
    model = LongConv(128).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(100):
        u = torch.randn(4, 128, 1024, device="cuda")
        loss = model(u).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
