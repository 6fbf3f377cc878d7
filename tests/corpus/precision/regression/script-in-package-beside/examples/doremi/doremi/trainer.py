"""The trainer the script imports from the package beside it."""
import torch

class DoReMiTrainer:
    def __init__(self, cfg):
        self.model = torch.nn.Linear(2, 2).to("cuda")
        self.opt = torch.optim.AdamW(self.model.parameters())

    def train(self, dl):
        for b in dl:
            loss = self.model(b).sum()
            loss.backward()
            self.opt.step()
