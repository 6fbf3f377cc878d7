import torch

from kernels.cache import CachedAttention
from kernels.ops import FusedScale
from kernels.scan import scan_fwd
from kernels.ssm import TinySSM


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(16, 16)
        self.attn = CachedAttention(16)
        self.ssm = TinySSM(16)
        self.scale = FusedScale()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.scale(self.ssm(scan_fwd(self.attn(self.proj(x)))))


def main() -> None:
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
