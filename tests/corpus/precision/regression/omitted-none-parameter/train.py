import torch
import torch.nn.functional as F

from audio import AudioClassifier


def main():
    model = AudioClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("fbank.pt", map_location="cpu"), batch_size=16, drop_last=True)
    for fbank, lengths, labels in loader:
        logits, pooled = model(fbank, lengths)
        loss = F.binary_cross_entropy_with_logits(logits, labels) + pooled.pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
