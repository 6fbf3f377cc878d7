"""A pipeline trainer: the step runs the micro-batches through whichever schedule the config picks."""
from abc import ABC, abstractmethod

import torch


class PipelineEngine(ABC):
    @abstractmethod
    def train_batch_iter(self, model, batch):
        ...


class AllForwardAllBackward(PipelineEngine):
    def train_batch_iter(self, model, batch):
        losses = [model(micro).float().pow(2).mean() for micro in batch]
        for loss in losses:
            loss.backward()
        return losses


class OneForwardOneBackward(PipelineEngine):
    def train_batch_iter(self, model, batch):
        losses = []
        for micro in batch:
            loss = model(micro).float().pow(2).mean()
            loss.backward()
            losses.append(loss.detach())
        return losses


class Trainer:
    def __init__(self, model, schedule="1f1b", steps=1000):
        self.model = model
        self.steps = steps
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        if schedule == "1f1b":
            self.engine = OneForwardOneBackward()
        else:
            self.engine = AllForwardAllBackward()

    def training_step(self, batch):
        losses = self.engine.train_batch_iter(self.model, batch)
        self.optimizer.step()
        self.optimizer.zero_grad()
        return torch.stack(losses).mean()

    def post_training(self):
        torch.cuda.synchronize()
        print("peak memory", torch.cuda.max_memory_allocated())

    def train(self, batches):
        for step in range(self.steps):
            loss = self.training_step(next(batches))
            if step % 10 == 0:
                print(step, loss.item())
        self.post_training()


def main():
    model = torch.nn.Linear(64, 64).cuda()
    Trainer(model).train(iter(torch.load("batches.pt", map_location="cpu")))


if __name__ == "__main__":
    main()
