import torch
from torch import nn

from layers import ModulatedConv, OffsetConv, PlainConv


class Block(nn.Module):
    def __init__(self, modulated=False):
        super().__init__()
        if modulated:
            op = ModulatedConv
        else:
            op = PlainConv
        self.conv = op()
        # Every block also runs the offset convolution: bound to a name, but not behind a switch.
        offset_op = OffsetConv
        self.offset = offset_op()

    def forward(self, x):
        return self.conv(self.offset(x, x), x)


def main():
    model = Block()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
