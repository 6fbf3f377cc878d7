import torch


class SimpleTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def run_step(self, batch):
        loss = self.model(batch).sum()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()


class ScaledTrainer(SimpleTrainer):
    def __init__(self, model, optimizer):
        super().__init__(model, optimizer)
        self.scaler = torch.cuda.amp.GradScaler()

    def run_step(self, batch):
        loss = self.model(batch).sum()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
