import torch
from transformers import AutoModelForCausalLM


class ActorWorker:
    def __init__(self, config):
        self.model = AutoModelForCausalLM.from_pretrained(config.model_path)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.actor.lr)

    def update_actor(self, batch):
        loss = self.model(batch, labels=batch).loss
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        torch.cuda.synchronize()
