import torch

from seq.utils import gather_stats


class Trainer:
    def __init__(self, task, model, optimizer):
        self.task = task
        self.model = model
        self.optimizer = optimizer

    def train_step(self, samples):
        logs = []
        for sample in samples:
            loss = self.task.train_step(sample, self.model, self.optimizer)
            logs.append(loss)
        total = gather_stats(logs)
        if not torch.isfinite(total):
            torch.cuda.empty_cache()
        self.task.optimizer_step(self.optimizer, model=self.model)
        self.optimizer.zero_grad()
        return total
