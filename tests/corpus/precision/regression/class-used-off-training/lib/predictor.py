"""A single-image predictor (the demo's) and the trainer's step runner."""
import torch


class Predictor:
    def __init__(self, model):
        self.device = torch.device("cuda")
        self.model = model.to(self.device).eval()

    def __call__(self, image):
        with torch.no_grad():
            return self.model(image.to(self.device)[None])[0]


class StepRunner:
    def __init__(self, model, optimizer):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.optimizer = optimizer

    def __call__(self, batch):
        loss = self.model(batch.to(self.device)).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss
