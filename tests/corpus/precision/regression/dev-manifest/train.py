import bitsandbytes as bnb
import torch


def main():
    model = torch.nn.Linear(4, 4)
    optimizer = bnb.optim.AdamW8bit(model.parameters())
    for _ in range(3):
        model(torch.zeros(4)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
