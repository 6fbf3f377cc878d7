import torch

from config import _C
from pool import Head


def main():
    cfg = _C.clone()
    model = Head(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(2, 8, 32, 32)
        rois = torch.randn(4, 6)
        loss = sum(o.sum() for o in model(x, rois))
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
