"""A trainer that builds its checkpoint uploader in post_init, only when the config asks for uploads."""
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class UploadArgs:
    bucket: str
    workers: int = 8


@dataclass
class Config:
    lr: float = 1e-4
    steps: int = 1000
    upload: Optional[UploadArgs] = None


class Uploader:
    def __init__(self, bucket, workers):
        self.bucket = bucket
        self.workers = workers
        self.pending = []

    def update(self):
        self.pending = [p for p in self.pending if not p.done()]


class Trainer:
    def __init__(self, model, config: Config):
        self.model = model
        self.config = config
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr)
        self.post_init()

    def post_init(self):
        if self.config.upload is not None:
            self.uploader = Uploader(self.config.upload.bucket, self.config.upload.workers)
        else:
            self.uploader = None

    def train(self, batches):
        for step in range(self.config.steps):
            loss = self.model(next(batches)).float().pow(2).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if self.uploader is not None:
                torch.cuda.synchronize()
                self.uploader.update()
            print(loss.item())


if __name__ == "__main__":
    Trainer(torch.nn.Linear(16, 16).cuda(), Config()).train(iter(torch.load("batches.pt")))
