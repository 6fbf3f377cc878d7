import torch
from torch.utils.data import DataLoader

from model import TinyLM


def main():
    model = TinyLM().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loader = DataLoader(torch.load("tokens.pt"), batch_size=16, drop_last=True)
    for step, (inputs, targets) in enumerate(loader):
        loss = model(inputs.cuda(), targets.cuda())
        # stop the run the step the loss diverges
        if not torch.isfinite(loss).all():
            raise RuntimeError(f"non-finite train loss at step {step}: {loss.item()}")
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        running = loss.item()
        print(f"step {step} loss {running:.4f}")


if __name__ == "__main__":
    main()
