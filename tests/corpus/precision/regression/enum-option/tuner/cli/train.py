import torch

from tuner.config.schema import Precision, TrainConfig, TrainMode


class Builder:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg

    def loss_fn(self):
        if self.cfg.mode is TrainMode.DISTILL:
            from tuner.trainers.distill import DistillStrategy

            return DistillStrategy.loss
        elif self.cfg.mode in [TrainMode.REWARD]:
            return torch.nn.functional.binary_cross_entropy_with_logits
        return torch.nn.functional.cross_entropy

    def cast(self, model):
        # The default precision: this branch runs.
        if self.cfg.precision == Precision.BF16:
            return model.to(torch.bfloat16).cuda()
        return model


def main():
    cfg = TrainConfig()
    builder = Builder(cfg)
    model = builder.cast(torch.nn.Linear(16, 16))
    loss_fn = builder.loss_fn()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for step in range(10):
        x = torch.randn(4, 16)
        loss = loss_fn(model(x), x)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
