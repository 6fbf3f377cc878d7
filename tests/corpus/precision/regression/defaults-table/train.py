import sys

import torch
import yaml

from mptlite.modeling import Model, ModelConfig


def main(path):
    cfg = yaml.safe_load(open(path))
    model = Model(ModelConfig(attn_config=cfg["model"].get("attn_config")))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    for _ in range(cfg["steps"]):
        x = torch.randn(8, 128, 256)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main(sys.argv[1])
