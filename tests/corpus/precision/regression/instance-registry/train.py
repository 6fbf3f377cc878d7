"""Fine-tunes the model; quantization and fused kernels are plugins a config may name."""
import torch
from torch.utils.data import DataLoader

from pkg.args import TrainArguments
from pkg.engine import ModelEngine


def main(dataset) -> None:
    args = TrainArguments()
    engine = ModelEngine(args)
    loader = DataLoader(dataset, batch_size=8, drop_last=True)
    for batch in loader:
        loss = engine.model(**batch).loss
        loss.backward()
        engine.optimizer.step()
        engine.optimizer.zero_grad()


if __name__ == "__main__":
    main(torch.load("data.pt"))
