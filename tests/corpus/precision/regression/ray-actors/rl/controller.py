import ray
import torch


class BaseTrainer:
    def log(self, stats):
        print(stats)


def reward_stats(rewards):
    if rewards.max().item() > 1.0:
        rewards = rewards.clamp(max=1.0)
    return rewards.mean().item()


@ray.remote
class Controller(BaseTrainer):
    def __init__(self, workers):
        self.workers = workers

    def training_step(self, batch):
        rewards = torch.tensor(ray.get([w.train_step.remote(batch) for w in self.workers]))
        self.log(reward_stats(rewards))
        return rewards.sum().item()
