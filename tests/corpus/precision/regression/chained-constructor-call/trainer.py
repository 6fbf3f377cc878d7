import torch


class SFTTrainer:
    def __init__(self, model, train_dataloader, val_dataloader, epochs=3):
        self.model = model
        self.train_dataloader = train_dataloader
        self.val_dataloader = val_dataloader
        self.epochs = epochs
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)

    def training_step(self, batch):
        loss = self.model(batch).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    @torch.no_grad()
    def validation_step(self, batch):
        return self.model(batch).pow(2).mean()

    def fit(self):
        history = []
        for epoch in range(self.epochs):
            for data in self.train_dataloader:
                loss = self.training_step(data)
                history.append(loss.detach().item())
            val_losses = []
            for data in self.val_dataloader:
                val_losses.append(self.validation_step(data))
            val_loss = torch.mean(torch.stack(val_losses))
            metric = {"val/loss": val_loss.detach().item()}
            print(epoch, metric)


def main():
    data = torch.load("tokens.pt", map_location="cpu")
    train = torch.utils.data.DataLoader(data, batch_size=8, drop_last=True)
    val = torch.utils.data.DataLoader(data, batch_size=8, drop_last=True)
    SFTTrainer(torch.nn.Linear(16, 16), train, val).fit()


if __name__ == "__main__":
    main()
