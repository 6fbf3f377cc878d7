import torch

from detlib.config.defaults import _C
from detlib.modeling.heads import build_heads


def main():
    cfg = _C.clone()
    heads = build_heads(cfg)
    optimizer = torch.optim.SGD(heads.parameters(), lr=0.02)
    for feats, targets in []:
        loss = heads(feats, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
