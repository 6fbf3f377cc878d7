import torch

from model import Attention, VisionLanguageModel


def main():
    model = VisionLanguageModel()
    attention = Attention()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        input_ids = torch.randint(0, 1000, (4, 32))
        pixels = torch.randn(4, 2, 64)
        hidden = model(input_ids, pixels)
        loss = attention(hidden, hidden, hidden).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
