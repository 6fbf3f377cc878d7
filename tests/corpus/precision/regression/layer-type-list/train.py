import torch

from neox.arguments import NeoXArgs
from neox.model import GPT


def pretrain(neox_args, batches):
    model = GPT(neox_args)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in batches:
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    pretrain(NeoXArgs.from_dict({}), [])
