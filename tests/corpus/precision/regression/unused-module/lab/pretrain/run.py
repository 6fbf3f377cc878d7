import torch
from modeling import PreModel


def main():
    model = PreModel()
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        model(torch.randint(0, 5, (4, 16))).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
