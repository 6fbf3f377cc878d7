import torch
from torch.utils.data import DataLoader


class TrainingStrategy:
    def __init__(self, model, lr):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def run_setup(self):
        self.device_id = torch.cuda.current_device()

    def run_training(self, dataset, collator, epochs=1):
        loader = DataLoader(dataset, batch_size=8, collate_fn=collator, drop_last=True)
        for _ in range(epochs):
            for batch in loader:
                loss = self.model(**batch).loss
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()


class FSDPStrategy(TrainingStrategy):
    def run_setup(self):
        self.model = torch.distributed.fsdp.FullyShardedDataParallel(self.model)


class Evaluator:
    def train(self, mode=True):
        torch.cuda.synchronize()
        return self
