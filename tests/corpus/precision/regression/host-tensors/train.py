import torch

from detlib.heads import BlockDropout, MaskHead


def main():
    model = MaskHead(8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        out, _ = model(torch.randn(2, 8, 16, 16), [torch.zeros(4, 4), torch.zeros(8, 8)])
        loss = BlockDropout(8, 0.1)(out).mean()
        loss.backward()
        optimizer.step()
        rewards = torch.tensor([float(step), 1.0, 2.0])
        if rewards.max().item() > 1.5:
            optimizer.zero_grad()
        truncated = torch.tensor([step % 2 == 0, False])
        if truncated[0].item():
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
