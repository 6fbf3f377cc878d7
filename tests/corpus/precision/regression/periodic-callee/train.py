import torch


class Trainer:
    def __init__(self, model, config):
        self.model = model
        self.config = config
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def training_step(self, batch):
        loss = self.model(batch).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def train_step_logs(self, loss):
        stats = {"loss": loss.item(), "max": loss.max().item()}
        return stats

    def track(self, loss):
        self.history.append(loss.detach().item())

    def grad_norm(self):
        return torch.stack([p.grad.norm() for p in self.model.parameters()]).norm().item()

    def train(self, loader):
        self.history = []
        for self.iteration_step in range(1, 1000):
            loss = self.training_step(next(loader))
            self.track(loss)
            if (self.iteration_step - 1) % self.config.iteration_step_info_interval == 0:
                print(self.train_step_logs(loss), self.grad_norm())
            if self.grad_norm() > self.config.max_grad_norm:
                self.optimizer.zero_grad()


def main():
    trainer = Trainer(torch.nn.Linear(8, 8), None)
    trainer.train(iter(torch.load("batches.pt", map_location="cpu")))


if __name__ == "__main__":
    main()
