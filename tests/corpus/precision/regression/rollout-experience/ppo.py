"""A PPO trainer: each epoch collects rollouts with the policy, then trains on them."""
import torch

from sampling import sample as sample_tokens


class PPOTrainer:
    def __init__(self, policy, optimizer, prompts):
        self.policy = policy
        self.optimizer = optimizer
        self.prompts = prompts
        self.store = []

    def make_experience(self, num_rollouts):
        device = torch.device("cuda")
        for prompt in self.prompts[:num_rollouts]:
            with torch.no_grad():
                sample = self.policy.generate(prompt.to(device), max_new_tokens=64)
            self.store.append(sample)
            self.store.append(sample_tokens(self.policy, prompt.to(device)))

    def evaluate(self):
        with torch.no_grad():
            return [self.policy.generate(p.to("cuda"), max_new_tokens=64) for p in self.prompts[:4]]

    def learn(self, epochs=10):
        for epoch in range(epochs):
            for batch in self.store:
                loss = self.policy(batch).loss
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
            self.store.clear()
            self.make_experience(128)
            if epoch % 5 == 0:
                self.evaluate()


def main():
    policy = torch.load("policy.pt", weights_only=False)
    trainer = PPOTrainer(policy, torch.optim.AdamW(policy.parameters()), torch.load("prompts.pt"))
    trainer.learn()


if __name__ == "__main__":
    main()
