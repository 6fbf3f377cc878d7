import torch


class WrappedOptimizer:
    def __init__(self, params, lr=1e-3):
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def backward(self, loss):
        loss.backward()

    def step(self):
        self.optimizer.step()

    def zero_grad(self):
        self.optimizer.zero_grad()
