import os

import torch
from torch import nn


class Recipe:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = nn.Linear(32, 32)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)

    def train(self):
        for step in range(self.cfg.get("max_steps", 10)):
            batch = torch.randn(4, 32)
            loss = self.model(batch).pow(2).mean()
            loss.backward()
            if self.cfg.get("enable_peak_stats", False):
                torch.cuda.synchronize()
            if self.cfg.get("enable_step_sync", False):
                torch.cuda.synchronize()
            if self.cfg.get("enable_memory_sync", True):
                torch.cuda.synchronize()
            if os.getenv("SCANLIB_TRACE_SYNC") == "1":
                torch.cuda.synchronize()
            if os.getenv("SCANLIB_DEBUG_SYNC") == "1":
                torch.cuda.synchronize()
            self.optimizer.step()
            self.optimizer.zero_grad()


if __name__ == "__main__":
    Recipe({"max_steps": 10}).train()
