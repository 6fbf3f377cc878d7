import torch

from lib.attention import Attention


def main():
    layer = Attention()
    optimizer = torch.optim.AdamW(layer.parameters())
    for x in [torch.randn(2, 16, 64)]:
        out = layer(x, mask=None)
        loss = out.pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
