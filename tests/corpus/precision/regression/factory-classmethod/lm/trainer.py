"""The trainer picks its optimizer wrapper from the config."""
from lm import optim


class Trainer:
    def __init__(self, cfg, model):
        self.cfg = cfg
        self.model = model
        self._optimizer = None

    @property
    def optimizer(self):
        if self._optimizer is None:
            self._build_optimizer()
        return self._optimizer

    def _build_optimizer(self):
        params = list(self.model.parameters())
        if self.cfg.amp:
            self._optimizer = optim.AMPOptimizer.build_optimizer(self.cfg, params)
        elif self.cfg.fused:
            self._optimizer = optim.FusedOptimizer.build_optimizer(self.cfg, params)

    def train_step(self, batch):
        if self._optimizer is None:
            self._build_optimizer()
        loss = self.model(batch).pow(2).mean()
        loss.backward()
        self._optimizer.step()
        return loss
