import torch


class PolicyWorker:
    def __init__(self):
        self.actor = torch.nn.Linear(16, 16)
        self.critic = torch.nn.Linear(16, 1)
        self.actor_optimizer = torch.optim.AdamW(self.actor.parameters(), lr=1e-5)
        self.critic_optimizer = torch.optim.AdamW(self.critic.parameters(), lr=1e-5)

    def compute_values(self, batch):
        torch.cuda.synchronize()
        return self.critic(batch).squeeze(-1)

    def update_actor(self, batch, advantages):
        torch.cuda.synchronize()
        loss = -(self.actor(batch).mean(-1) * advantages).mean()
        loss.backward()
        self.actor_optimizer.step()
        self.actor_optimizer.zero_grad()
