import torch

from finetune.optim import make_optimizer
from finetune.versions import package_info


def main():
    print(package_info())
    model = torch.nn.Linear(16, 16)
    optimizer = make_optimizer(model)
    for step in range(10):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
