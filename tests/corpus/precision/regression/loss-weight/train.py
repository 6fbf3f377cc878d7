import argparse

import torch

from distiller import Distiller


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--alpha_ce", default=0.5, type=float, help="weight of the distillation loss")
    parser.add_argument("--alpha_mse", default=0.0, type=float, help="weight of the MSE loss on the logits")
    parser.add_argument("--lr", default=5e-4, type=float)
    args = parser.parse_args()
    student = torch.nn.Linear(16, 16)
    teacher = torch.nn.Linear(16, 16)
    loader = torch.utils.data.DataLoader(torch.load("batches.pt", map_location="cpu"), batch_size=8, drop_last=True)
    Distiller(params=args, student=student, teacher=teacher).train(loader)


if __name__ == "__main__":
    main()
