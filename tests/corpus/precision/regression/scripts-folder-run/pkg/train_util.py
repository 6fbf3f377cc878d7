import torch


class TrainLoop:
    def __init__(self, model, data, lr):
        self.model = model
        self.data = data
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)

    def run_loop(self):
        for batch in self.data:
            self.run_step(batch)

    def run_step(self, batch):
        self.forward_backward(batch)
        self.opt.step()

    def forward_backward(self, batch):
        for micro in batch.split(2):
            loss = self.model(micro).mean()
            loss.backward()
