import torch

from .sharding import VLLMShardingManager


class ActorWorker:
    def __init__(self, model, engine):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
        self.sharding = VLLMShardingManager(model, engine)

    def update_actor(self, batch):
        loss = self.model(batch).sum()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.sharding.sync_weights()
