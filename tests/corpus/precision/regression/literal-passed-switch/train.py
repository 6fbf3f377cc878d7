import torch
import torch.nn.functional as F

from seqlib import LSTMEncoder


def main():
    model = LSTMEncoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(torch.load("pairs.pt", map_location="cpu"), batch_size=32, drop_last=True)
    for src, tgt in loader:
        loss = F.cross_entropy(model(src).transpose(1, 2), tgt)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
