"""A distillation run whose driver method is neither train() nor fit(): its loop trains through a step method."""
import torch
from torch.utils.data import DataLoader


class Student(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(512, 512)

    def forward(self, x):
        return self.proj(x)


class Distiller:
    def __init__(self, student, teacher, loader):
        self.student = student
        self.teacher = teacher
        self.loader = loader
        self.optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)

    def distill_batch(self, batch):
        with torch.no_grad():
            target = self.teacher(batch)
        loss = torch.nn.functional.mse_loss(self.student(batch), target)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def evaluate(self, batch):
        with torch.no_grad():
            gap = (self.student(batch) - self.teacher(batch)).abs().mean()
        return gap.item()

    def log_stats(self, loss):
        return {"loss": loss.item(), "lr": self.optimizer.param_groups[0]["lr"]}

    def run(self, epochs, eval_every=200):
        for epoch in range(epochs):
            for i, batch in enumerate(self.loader):
                loss = self.distill_batch(batch)
                print(f"loss {loss.item():.4f}")
                if i % eval_every == 0:
                    print(self.evaluate(batch), self.log_stats(loss))
            torch.cuda.empty_cache()


def main():
    data = torch.randn(1024, 512)
    loader = DataLoader(data, batch_size=32, drop_last=True)
    teacher = Student().eval()
    Distiller(Student(), teacher, loader).run(epochs=3)


if __name__ == "__main__":
    main()
