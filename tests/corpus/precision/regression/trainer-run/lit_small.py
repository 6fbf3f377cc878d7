import lightning as L
import torch


class TinyModule(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(8, 8)

    def training_step(self, batch, batch_idx):
        return self.layer(batch).sum()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def generate(self, prompt):
        return prompt


if __name__ == "__main__":
    module = TinyModule()
    trainer = L.Trainer(accelerator="cuda", devices=1, max_steps=10)
    trainer.fit(module, torch.utils.data.DataLoader(torch.randn(16, 8), batch_size=4))
    module.generate("hello world")
