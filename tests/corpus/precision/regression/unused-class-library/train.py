import torch

from lib import Model, Trainer


def main():
    trainer = Trainer(Model())
    loader = torch.utils.data.DataLoader(torch.load("data.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        trainer.train_step(x)


if __name__ == "__main__":
    main()
