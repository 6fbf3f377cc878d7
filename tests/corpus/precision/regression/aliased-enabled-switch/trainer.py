import torch
from torch.cuda.amp import GradScaler


class DiffusionTrainer:
    def __init__(self, model, lr=1e-4, fp16=False, amp=True):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        grad_scaler_enabled = fp16
        self.scaler = GradScaler(enabled=grad_scaler_enabled)
        use_amp = amp
        self.amp_scaler = GradScaler(enabled=use_amp)

    def step(self, images):
        with torch.autocast("cuda", enabled=self.scaler.is_enabled()):
            loss = self.model(images).pow(2).mean()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad()
        return loss.detach()


def main():
    trainer = DiffusionTrainer(torch.nn.Linear(16, 16))
    for _ in range(100):
        trainer.step(torch.randn(8, 16))


if __name__ == "__main__":
    main()
