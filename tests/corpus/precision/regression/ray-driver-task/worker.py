import ray
import torch
from torch import nn


@ray.remote(num_gpus=1)
class ActorWorker:
    def __init__(self):
        self.model = nn.Linear(256, 256).cuda()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-5)

    def update_policy(self, batch):
        x = batch["inputs"].cuda()
        loss = self.model(x).square().mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return {"loss": loss.item(), "scores": batch["scores"], "mask": batch["mask"]}
