"""Pre-trains the MoE with the default (standard) token dispatcher; a variant picks the fast one."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from pkg.dispatch import model_registry


def pretrain(steps: int = 100):
    model = model_registry("debug")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(steps * 4, 64)), batch_size=4, drop_last=True)
    for (inputs,) in loader:
        optimizer.zero_grad()
        model(inputs).pow(2).mean().backward()
        optimizer.step()


VARIANTS = {"fast": lambda: model_registry("debug", moe_comm_backend="fast")}

if __name__ == "__main__":
    pretrain()
