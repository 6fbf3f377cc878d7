import torch

from config import TrainerConfig
from workers import PolicyWorker


class PPOTrainer:
    def __init__(self, config: TrainerConfig):
        self.config = config
        self.worker = PolicyWorker()
        if config.algorithm.adv_estimator == "gae":
            self.use_critic = True
        else:
            self.use_critic = False

    def fit(self):
        for step in range(self.config.total_steps):
            batch = torch.randn(8, 16)
            rewards = torch.randn(8)
            if self.use_critic:
                advantages = rewards - self.worker.compute_values(batch)
            else:
                advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-6)
            self.worker.update_actor(batch, advantages)


if __name__ == "__main__":
    PPOTrainer(TrainerConfig()).fit()
