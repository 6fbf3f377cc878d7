"""A trainer that logs every log_freq steps through a MetricsProcessor predicate."""
import torch


class MetricsProcessor:
    def __init__(self, log_freq: int = 10):
        self.log_freq = log_freq

    def should_log(self, step: int) -> bool:
        return step == 1 or step % self.log_freq == 0


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters())
        self.metrics_processor = MetricsProcessor()
        self.step = 0
        self.should_print = False

    def train_step(self, x):
        loss = self.model(x).pow(2).mean()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.step += 1
        self.should_print = True
        if self.should_print:
            print(f"loss {loss.item()}")
        should_log = self.metrics_processor.should_log(self.step)
        if not should_log:
            return
        print(grad_norm.item())

    def train(self):
        for _ in range(100):
            self.train_step(torch.randn(8, 64))


if __name__ == "__main__":
    Trainer(torch.nn.Linear(64, 64)).train()
