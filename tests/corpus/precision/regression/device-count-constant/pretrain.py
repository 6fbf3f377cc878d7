import lightning as L
import torch
from lightning.fabric.strategies import DeepSpeedStrategy

devices = 8


def main():
    fabric = L.Fabric(devices=devices, strategy=(DeepSpeedStrategy(config={}) if devices > 1 else "auto"))
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model, optimizer = fabric.setup(model, optimizer)
    for _ in range(10):
        loss = model(torch.zeros(4, 4)).sum()
        fabric.backward(loss)
        optimizer.step()


if __name__ == "__main__":
    main()
