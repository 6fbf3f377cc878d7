"""The LightningModule: the backbone is chosen by the config and built in __init__."""
import lightning as L
import torch

import models


class Diffusion(L.LightningModule):
    def __init__(self, config):
        super().__init__()
        self.config = config
        if config.backbone == "ar":
            self.backbone = models.autoregressive.AR(config, vocab_size=config.vocab_size)
        else:
            raise ValueError(f"Unknown backbone: {config.backbone}")

    def forward(self, x):
        return self.backbone(x)

    def training_step(self, batch, batch_idx):
        logits = self.forward(batch["input_ids"])
        return torch.nn.functional.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())

    def sample(self, steps):
        x = torch.zeros(1, self.config.model.length, dtype=torch.long, device=self.device)
        for _ in range(steps):
            x = self.forward(x).argmax(-1)
        return x

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.config.optim.lr)
