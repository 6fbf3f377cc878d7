import torch

from moelite.model import Block


def main():
    model = nn_model = torch.nn.Sequential(*[Block(512) for _ in range(4)])
    opt = torch.optim.AdamW(nn_model.parameters(), lr=3e-4)
    for _ in range(100):
        loss = model(torch.randn(8, 64, 512)).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
