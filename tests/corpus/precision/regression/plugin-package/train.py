import importlib
import sys

import torch
import yaml

from tuner.integrations.base import load_plugins


def build(component: str):
    module_name, attr = component.rsplit(".", 1)
    return getattr(importlib.import_module(module_name), attr)()


def main(path):
    cfg = yaml.safe_load(open(path))
    for plugin in load_plugins(cfg):
        plugin.pre_model_load(cfg)
    model = build(cfg["model"]["_component_"])
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        x = torch.randn(8, 16)
        loss = model(x, torch.randint(0, 4, (8,))).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(sys.argv[1])
