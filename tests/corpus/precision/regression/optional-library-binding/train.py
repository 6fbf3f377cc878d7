import torch

from model.attention import DenseAttention, VarlenAttention


def main():
    varlen = VarlenAttention(64)
    dense = DenseAttention(64)
    optimizer = torch.optim.AdamW(list(varlen.parameters()) + list(dense.parameters()))
    for step in range(10):
        x = torch.randn(32, 64)
        cu = torch.tensor([0, 16, 32], dtype=torch.int32)
        loss = varlen(x, cu, 16).sum() + dense(x.view(2, 16, 64)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
