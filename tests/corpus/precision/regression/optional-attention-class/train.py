import torch

from modeling import Model


def main():
    model = Model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        hidden = torch.randn(4, 32, 64)
        mask = torch.ones(4, 32, dtype=torch.long)
        loss = model(hidden, mask).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
