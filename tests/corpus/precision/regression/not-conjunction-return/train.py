import torch

from tuner.config import TrainConfig
from tuner.patches import PatchManager


def main(cfg: TrainConfig):
    model = torch.nn.Linear(16, 16)
    patches = PatchManager(cfg)
    patches.apply_tiled_moe(model)
    patches.apply_packing(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(TrainConfig())
