import torch


def main():
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(10):
        model(torch.zeros(4)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
