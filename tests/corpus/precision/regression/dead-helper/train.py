import torch

from kernels.scan import scan


def main():
    weight = torch.nn.Parameter(torch.randn(64, device="cuda"))
    optimizer = torch.optim.SGD([weight], lr=0.1)
    for _ in range(3):
        loss = scan(weight).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
