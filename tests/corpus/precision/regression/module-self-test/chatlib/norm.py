"""RMSNorm, with a toy training check that `python -m chatlib.norm` runs."""
import torch


class RMSNorm(torch.nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def test_toy_training():
    model = RMSNorm(64)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(4):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()


if __name__ == "__main__":
    x = torch.randn(8, 64).cuda()
    print(RMSNorm(64).cuda()(x).shape)
    test_toy_training()
