import torch
from accelerate import Accelerator
from torch import nn


class Denoiser(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Linear(dim, dim)

    def forward(self, images):
        noise = torch.randn_like(images)
        loss = (self.net(images + noise) - noise).pow(2).mean()
        steps = int(noise.abs().max().item()) + 1
        for _ in range(steps):
            loss = loss * 0.9
        return loss


class DenoiserTrainer(nn.Module):
    def __init__(self, model, lr=1e-4):
        super().__init__()
        self.accelerator = Accelerator()
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.model, self.optimizer = self.accelerator.prepare(self.model, self.optimizer)

    def update(self):
        self.optimizer.step()
        self.optimizer.zero_grad()

    def forward(self, images, max_batch_size=None):
        total_loss = 0.0
        for chunk in images.split(max_batch_size or images.shape[0]):
            with self.accelerator.autocast():
                loss = self.model(chunk) * (chunk.shape[0] / images.shape[0])
            total_loss += loss.item()
            if self.training:
                self.accelerator.backward(loss)
        return total_loss
