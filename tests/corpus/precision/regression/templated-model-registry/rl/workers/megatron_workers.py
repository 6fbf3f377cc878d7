import torch

from rl.models.registry import load_model_cls


class ActorWorker:
    def __init__(self, config):
        model_cls = load_model_cls("LlamaForCausalLM")
        self.model = model_cls()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.actor.lr)

    def update_actor(self, batch):
        loss = self.model(batch.hidden, batch.cu_seqlens, batch.max_seqlen).sum()
        loss.backward()
        self.optimizer.step()
