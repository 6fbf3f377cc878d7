import time

import torch

from seq.optim import WrappedOptimizer
from seq.task import TranslationTask
from seq.trainer import Trainer


def main():
    model = torch.nn.Linear(16, 16)
    trainer = Trainer(TranslationTask(lambda m, s: m(s).pow(2).mean()), model, WrappedOptimizer(model.parameters()))
    samples = [torch.randn(8, 16) for _ in range(4)]
    with torch.profiler.profile() as prof:
        started = time.perf_counter()
        for _ in range(100):
            trainer.train_step(samples)
    print(time.perf_counter() - started)
    print(prof.key_averages().table())


if __name__ == "__main__":
    main()
