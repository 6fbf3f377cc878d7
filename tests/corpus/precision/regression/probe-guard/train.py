import torch

from moelib.experts import Experts, fast_path_scale


def main():
    model = Experts(4, 32)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = fast_path_scale(torch.randn(16, 32))
        loss = model(x, torch.tensor([4, 4, 4, 4])).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
