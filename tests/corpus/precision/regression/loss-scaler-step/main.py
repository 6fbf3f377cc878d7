import argparse

import torch
from timm.utils import NativeScaler
from torch import nn

import utils
from engine import train_one_epoch


def main(args):
    utils.init_distributed_mode(args)
    device = torch.device(args.device)
    model = nn.Linear(64, 10).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    loader = [(torch.randn(8, 64), torch.randint(0, 10, (8,))) for _ in range(100)]
    loss_scaler = NativeScaler()
    for _ in range(args.epochs):
        train_one_epoch(model, nn.CrossEntropyLoss(), loader, optimizer, device, loss_scaler)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--epochs", default=300, type=int)
    main(parser.parse_args())
