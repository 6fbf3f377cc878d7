import torch

from neox.arguments import NeoXArgsModel
from neox.transformer import TransformerLayer


def pretrain(neox_args, batches):
    model = TransformerLayer(neox_args)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in batches:
        loss = model(x, 1.0, 0.0).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    pretrain(NeoXArgsModel.from_dict({}), [])
