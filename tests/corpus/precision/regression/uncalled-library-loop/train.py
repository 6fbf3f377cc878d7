"""The application: supervised fine-tuning with the library's masked mean."""
import torch

from rlkit import masked_mean


def main():
    model = torch.nn.Linear(128, 128).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batches = torch.load("batches.pt", map_location="cpu")
    for inputs, targets, mask in batches:
        inputs, targets, mask = inputs.cuda(), targets.cuda(), mask.cuda()
        loss = masked_mean((model(inputs) - targets).pow(2), mask)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())


if __name__ == "__main__":
    main()
