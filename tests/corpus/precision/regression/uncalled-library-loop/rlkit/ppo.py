"""A copy of an RL library's PPO trainer, kept beside the application; the application uses only its helpers."""
import torch

from .utils import masked_mean


class PPOTrainer:
    def __init__(self, model, optimizer, ppo_epochs=4, mini_batch_size=8):
        self.model = model
        self.optimizer = optimizer
        self.ppo_epochs = ppo_epochs
        self.mini_batch_size = mini_batch_size

    def batched_forward_pass(self, queries, masks):
        starts = []
        for mask in masks:
            starts.append(mask.nonzero()[0])
        return self.model(queries), starts

    def train_minibatch(self, logprobs, advantages, mask):
        loss = -masked_mean(logprobs * advantages, mask)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

    def step(self, queries, masks, advantages):
        with torch.no_grad():
            logprobs, _ = self.batched_forward_pass(queries, masks)
        stats = []
        for _ in range(self.ppo_epochs):
            for start in range(0, queries.shape[0], self.mini_batch_size):
                end = start + self.mini_batch_size
                first_tokens = masks[start:end].nonzero()[:, 1]
                stats.append(self.train_minibatch(logprobs[start:end], advantages[start:end], masks[start:end]))
                stats.append(first_tokens)
        return stats
