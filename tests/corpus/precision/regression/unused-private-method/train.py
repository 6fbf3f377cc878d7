import torch

from moe import MoELayer


def main():
    model = MoELayer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("tokens.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        out, _ = model(x)
        loss = out.pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
