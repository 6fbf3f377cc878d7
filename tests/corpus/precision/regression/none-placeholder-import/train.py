import torch

from modeling import Model, dequantized


def main():
    model = Model(512)
    norms = [dequantized(p).norm() for p in model.parameters() if p.dim() == 2]
    print(f"{len(norms)} weight matrices")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("x.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
