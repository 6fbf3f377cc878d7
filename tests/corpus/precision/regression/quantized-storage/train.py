import torch
from torch import nn

from lora import LoRALinear, to_pixels


def main():
    model = LoRALinear(nn.Linear(16, 16))
    optimizer = torch.optim.AdamW([model.lora_A, model.lora_B])
    for _ in range(10):
        x = to_pixels(torch.randint(0, 255, (4, 16), dtype=torch.uint8))
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
    model.merge()
    torch.save(model.state_dict(), "merged.pt")


if __name__ == "__main__":
    main()
