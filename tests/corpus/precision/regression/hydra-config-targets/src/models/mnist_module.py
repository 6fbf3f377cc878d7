"""The LightningModule and the network a config builds into it."""
import lightning as L
import torch
from torch import nn


class DenseNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.model = nn.Sequential(nn.Flatten(), nn.Linear(784, hidden), nn.ReLU(), nn.Linear(hidden, 10))

    def forward(self, x):
        logits = self.model(x)
        keep = logits.abs().sum(-1) > 0
        return logits[keep]


class MNISTLitModule(L.LightningModule):
    def __init__(self, net, compile=False):
        super().__init__()
        self.net = net
        self.compile_net = compile

    def setup(self, stage):
        if self.compile_net and stage == "fit":
            self.net = torch.compile(self.net)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
