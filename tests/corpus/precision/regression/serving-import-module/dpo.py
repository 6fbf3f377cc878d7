import torch
from torch import nn

from data_loader import preference_batches


def main():
    policy = nn.Linear(64, 1)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
    dataset = [{"chosen": torch.randn(64), "rejected": torch.randn(64)} for _ in range(256)]
    for chosen, rejected in preference_batches(dataset, 8):
        loss = -torch.nn.functional.logsigmoid(policy(chosen) - policy(rejected)).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
