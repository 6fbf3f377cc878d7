import torch

from lm.config import TrainConfig
from lm.trainer import Trainer


def main():
    cfg = TrainConfig()
    model = torch.nn.Linear(16, 16)
    trainer = Trainer(cfg, model)
    for _ in range(100):
        trainer.train_step(torch.randn(8, 16))


if __name__ == "__main__":
    main()
