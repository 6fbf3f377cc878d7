import torch


class PolicyRecipe:
    def __init__(self, policy, optimizer, prompts):
        self.policy = policy
        self.optimizer = optimizer
        self.prompts = prompts

    @torch.no_grad()
    def generate_trajectory(self, prompt):
        responses = self.policy.generate(prompt, max_new_tokens=64, do_sample=True)
        return responses

    def generate_trajectory_batched(self, prompts):
        return [self.generate_trajectory(p) for p in prompts]

    @torch.no_grad()
    def evaluate(self):
        samples = self.policy.generate(self.prompts[:1], max_new_tokens=16)
        return samples

    def train(self, steps):
        for step in range(steps):
            trajectories = self.generate_trajectory_batched(self.prompts)
            loss = self.policy(trajectories).loss
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if step % 100 == 0:
                self.evaluate()
