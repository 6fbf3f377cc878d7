import torch
from torch import nn

from attention import RingAttention
from config import TrainingArguments


class Trainer:
    def __init__(self, args: TrainingArguments, model: nn.Module):
        self.args = args
        self.model = model
        if self.args.cp_size > 1:
            self.model.attn = RingAttention(group=None)
        if self.args.world_size > 1:
            torch.cuda.set_device(0)

    def fit(self, batches):
        opt = torch.optim.AdamW(self.model.parameters())
        for x in batches:
            loss = self.model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


def train_actor(batches):
    from ring import PackedActor

    actor = PackedActor(8)
    opt = torch.optim.AdamW(actor.parameters())
    for x in batches:
        actor(x).sum().backward()
        opt.step()


if __name__ == "__main__":
    Trainer(TrainingArguments(), nn.Linear(8, 8)).fit([torch.randn(4, 8)])
    train_actor([torch.randn(4, 8)])
