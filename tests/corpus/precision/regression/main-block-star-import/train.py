import torch

from quant.layers import QLinear


def main():
    model = QLinear(64, 64).cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(100):
        loss = model(torch.randn(8, 64).cuda()).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    torch.cuda.set_device(0)
    main()
