import torch

from rlhf.rollout import generate_rollouts


def main(model, prompts, reward_fn):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
    for _ in range(10):
        texts = generate_rollouts("ckpt/", prompts)
        loss = -reward_fn(model, texts).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
