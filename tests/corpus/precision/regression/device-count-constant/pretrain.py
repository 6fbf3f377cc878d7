import lightning as L
import torch
from lightning.fabric.strategies import DeepSpeedStrategy

devices = 8


class Pretrainer:
    def __init__(self):
        self.fabric = L.Fabric(devices=devices, strategy=DeepSpeedStrategy(config={}) if devices > 1 else "auto")

    def fit(self, model, optimizer, batches):
        for batch in batches:
            self.fabric.backward(model(batch).sum())
            optimizer.step()


if __name__ == "__main__":
    net = torch.nn.Linear(4, 1)
    Pretrainer().fit(net, torch.optim.SGD(net.parameters(), lr=0.1), [torch.zeros(2, 4)])
