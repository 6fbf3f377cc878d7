import torch

from vae.ops import ConvLayer, check_layers


def main():
    model = torch.nn.Sequential(ConvLayer(8), ConvLayer(8))
    check_layers(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("images.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
