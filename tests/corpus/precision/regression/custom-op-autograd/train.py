from dataclasses import dataclass

import torch
from ops import double_op


@dataclass
class Config:
    use_fast_double: bool = False


class Block(torch.nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.config = config
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = torch.ops.fast.scale(self.lin(x), 0.5)
        if self.config.use_fast_double:
            y = double_op(y)
        y = torch.ops.fast.fused_gelu(y)
        return y


def main():
    model = Block(Config())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
