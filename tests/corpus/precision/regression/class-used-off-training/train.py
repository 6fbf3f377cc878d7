import torch

from lib.model import Net
from research.vision.lib.predictor import StepRunner


def main():
    model = Net()
    runner = StepRunner(model, torch.optim.AdamW(model.parameters()))
    for batch in torch.utils.data.DataLoader(torch.rand(64, 16), batch_size=8):
        runner(batch)


if __name__ == "__main__":
    main()
