"""A trainer whose logging cadence is decided by predicate methods, as OLMo's is."""
import torch


class Trainer:
    def __init__(self, model, log_interval=100, metrics_interval=500):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        self.global_step = 0
        self.log_interval = log_interval
        self.metrics_interval = metrics_interval

    def should_log_this_step(self) -> bool:
        return self.global_step % self.log_interval == 0

    def should_log_optim_metrics_this_step(self) -> bool:
        return self.global_step % self.metrics_interval == 0

    def train_step(self, batch):
        loss = self.model(batch).float().pow(2).mean()
        loss.backward()
        should_log_optim_metrics_this_step = self.should_log_optim_metrics_this_step()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad()
        metrics = {"loss": loss.detach()}
        if should_log_optim_metrics_this_step:
            metrics["grad_norm"] = grad_norm.item()
        return metrics

    def fit(self, batches):
        for batch in batches:
            self.global_step += 1
            metrics = self.train_step(batch)
            if self.should_log_this_step():
                print(self.global_step, metrics["loss"].item())
            assert torch.isfinite(metrics["loss"]).item()


if __name__ == "__main__":
    Trainer(torch.nn.Linear(32, 32).cuda()).fit(torch.load("batches.pt", map_location="cpu"))
