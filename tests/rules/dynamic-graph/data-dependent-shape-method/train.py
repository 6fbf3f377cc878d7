import torch

from detlib.model import build_model


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def run_step(self, batch):
        loss = self.model(*batch)
        report(self.model, batch)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()


def report(criterion, batch):
    # A receiver of unknown type whose method four classes define: not linked by name.
    return criterion.losses(batch[0], batch[2])


def main(cfg, loader):
    model = build_model(cfg)
    trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.01))
    for batch in loader:
        trainer.run_step(batch)
