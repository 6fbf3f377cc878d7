# An RL trainer whose episode loop generates a completion every timestep and runs the learner every
# `update_timesteps` (PaLM-rlhf-pytorch's PPO/GRPO trainers): the generation is the rollout the updates
# train on, step code, not an evaluation.
from collections import deque

import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.out = nn.Linear(dim, num_tokens)

    def forward(self, x):
        return self.out(self.emb(x))

    def sample(self, length, prompt):
        out = prompt
        for _ in range(length):
            out = torch.cat((out, self.forward(out)[:, -1].argmax(-1, keepdim=True)), dim=-1)
        return out


class Actor(nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    @torch.no_grad()
    def generate(self, prompt, max_seq_len):
        return self.lm.sample(max_seq_len, prompt)


class RLTrainer(nn.Module):
    def __init__(self, lm, prompts):
        super().__init__()
        self.actor = Actor(lm)
        self.actor_generate = self.actor.generate
        self.optim = torch.optim.Adam(self.actor.parameters(), lr=1e-5)
        self.prompts = prompts

    def learn(self, memories):
        for sequence, reward in memories:
            logits = self.actor.lm(sequence)
            loss = -(logits.log_softmax(-1).mean() * reward)
            loss.backward()
            self.optim.step()
            self.optim.zero_grad()

    def train(self, num_episodes=100, max_timesteps=50, update_timesteps=10):
        memories = deque([])
        time = 0
        for _ in range(num_episodes):
            for _ in range(max_timesteps):
                time += 1
                state = self.prompts[torch.randint(0, len(self.prompts), ()).item()]
                sequence = self.actor_generate(state[None], max_seq_len=64)
                reward = sequence.float().mean()
                memories.append((sequence, reward))
                if time % update_timesteps == 0:
                    self.learn(memories)
                    memories.clear()


if __name__ == "__main__":
    trainer = RLTrainer(TinyLM(256, 512).cuda(), torch.randint(0, 256, (100, 16)).cuda())
    trainer.train()
