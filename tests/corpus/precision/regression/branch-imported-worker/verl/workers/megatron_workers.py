import torch


class RewardModelWorker:
    def __init__(self, config):
        self.model = torch.nn.Linear(8, 1)

    def compute_rm_score(self, batch):
        return self.model(batch)
