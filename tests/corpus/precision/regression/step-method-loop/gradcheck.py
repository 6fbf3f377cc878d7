"""A gradient check against a double-precision reference: backward without an optimizer is no training step."""
import torch


def check_backward(size):
    x = torch.randn(size, dtype=torch.float64, requires_grad=True)
    y = (x.sin() * x).sum()
    y.backward()
    return (x.grad - (x.cos() * x + x.sin())).abs().max()


if __name__ == "__main__":
    for size in (8, 64, 512):
        err = check_backward(size)
        print(size, err.item())
