import importlib.util
from dataclasses import dataclass, field

import torch


def is_apex_available():
    return importlib.util.find_spec("apex") is not None


if is_apex_available():
    from apex import amp


@dataclass
class TrainingArguments:
    fp16: bool = field(default=False, metadata={"help": "mixed precision through apex"})
    fused_apex_step: bool = field(default=True, metadata={"help": "scale the loss with apex"})
    epochs: int = 1


class Trainer:
    def __init__(self, model, args: TrainingArguments, loader):
        self.model = model
        self.args = args
        self.loader = loader
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        self.use_apex = False
        if args.fp16:
            if not is_apex_available():
                raise ImportError("apex is needed for fp16")
            self.use_apex = True

    def training_step(self, batch):
        loss = self.model(**batch).loss
        if self.use_apex:
            with amp.scale_loss(loss, self.optimizer) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()
        return loss.detach()

    def train(self):
        for _ in range(self.args.epochs):
            for batch in self.loader:
                self.training_step(batch)
                self.optimizer.step()
                self.optimizer.zero_grad()


class ApexTrainer(Trainer):
    def __init__(self, model, args: TrainingArguments, loader):
        super().__init__(model, args, loader)
        self.scale_with_apex = False
        if args.fused_apex_step:
            self.scale_with_apex = True

    def training_step(self, batch):
        loss = self.model(**batch).loss
        if self.scale_with_apex:
            with amp.scale_loss(loss, self.optimizer) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()
        return loss.detach()
