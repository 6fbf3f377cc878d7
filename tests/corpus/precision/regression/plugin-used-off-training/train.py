import sys

import torch
import yaml

from tuner.cli.inference import chat  # noqa: F401  (the CLI module imports every command)
from tuner.integrations.base import load_plugins
from tuner.integrations.sharding import shard_axis


def main(path):
    cfg = yaml.safe_load(open(path))
    for plugin in load_plugins(cfg):
        plugin.pre_model_load(cfg)
    shard_axis(cfg.get("mesh"))
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(sys.argv[1])
