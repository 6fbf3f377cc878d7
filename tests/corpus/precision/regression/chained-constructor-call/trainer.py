import torch


class Distiller:
    """A distillation run the script builds and starts in one expression."""

    def __init__(self, student, teacher, loader):
        self.student = student
        self.teacher = teacher.eval()
        self.loader = loader
        self.optimizer = torch.optim.SGD(student.parameters(), lr=0.1)

    def step(self, batch):
        with torch.no_grad():
            target = self.teacher(batch)
        loss = torch.nn.functional.mse_loss(self.student(batch), target)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def fit(self, epochs):
        losses = []
        for epoch in range(epochs):
            for batch in self.loader:
                loss = self.step(batch)
                losses.append(loss.item())
            total = torch.stack([p.norm() for p in self.student.parameters()]).sum()
            losses.append(total.item())
        return losses


if __name__ == "__main__":
    data = torch.load("features.pt", map_location="cpu")
    loader = torch.utils.data.DataLoader(data, batch_size=32, drop_last=True)
    Distiller(torch.nn.Linear(64, 64), torch.nn.Linear(64, 64), loader).fit(epochs=2)
