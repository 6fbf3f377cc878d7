import torch

from seq.optim import WrappedOptimizer
from seq.task import TranslationTask
from seq.trainer import Trainer


def main():
    model = torch.nn.Linear(16, 16)
    task = TranslationTask(lambda m, s: m(s).pow(2).mean())
    trainer = Trainer(task, model, WrappedOptimizer(model.parameters()))
    for epoch in range(10):
        for step in range(100):
            trainer.train_step([torch.randn(8, 16) for _ in range(4)])


if __name__ == "__main__":
    main()
