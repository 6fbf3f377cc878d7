import argparse

import torch


def exists(v):
    return v is not None


class Trainer:
    def __init__(self, model, checkpoint_path=None, checkpoint_every=100):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        self.checkpoint_path = checkpoint_path
        self.checkpoint_every = checkpoint_every
        self.steps = torch.zeros(1)

    def update(self):
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.steps += 1
        if not exists(self.checkpoint_path):
            return
        total_steps = int(self.steps.item())
        if total_steps % self.checkpoint_every == 0:
            torch.save(self.model.state_dict(), self.checkpoint_path)

    def train_step(self, x):
        loss = self.model(x).pow(2).mean()
        loss.backward()
        self.update()
        return loss


class Monitor:
    def __init__(self, model, log_dir=None):
        self.model = model
        self.log_dir = log_dir

    def record(self, loss):
        if self.log_dir is not None:
            self.total = loss.detach().to("cuda")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-dir", default="runs")
    args = parser.parse_args()
    model = torch.nn.Linear(8, 8)
    trainer = Trainer(model)
    monitor = Monitor(model, log_dir=args.log_dir)
    for _ in range(10):
        loss = trainer.train_step(torch.randn(4, 8))
        monitor.record(loss)


if __name__ == "__main__":
    main()
