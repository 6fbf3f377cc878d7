import torch
from torch import nn

from gemmlib.config_utils import make_attention_out, make_ffn, make_norm


class Block(nn.Module):
    def __init__(self, dim: int, norm: str):
        super().__init__()
        self.norm = make_norm(dim, norm)
        self.ffn = make_ffn(dim)
        self.out = make_attention_out(dim)

    def forward(self, x):
        return self.out(self.ffn(self.norm(x), "tp"), "tp")


def main(norm: str = "rms"):
    model = Block(64, norm)
    opt = torch.optim.AdamW(model.parameters())
    for step in range(100):
        x = torch.randn(8, 64)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
