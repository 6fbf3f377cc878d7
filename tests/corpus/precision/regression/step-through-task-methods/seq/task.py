import torch


class TranslationTask:
    def __init__(self, criterion):
        self.criterion = criterion

    def train_step(self, sample, model, optimizer):
        model.train()
        loss = self.criterion(model, sample)
        optimizer.backward(loss)
        return loss.detach()

    def optimizer_step(self, optimizer, model):
        optimizer.step()
