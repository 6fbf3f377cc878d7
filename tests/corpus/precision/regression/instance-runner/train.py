import argparse

import torch

from distiller import Distiller
from utils import init_gpu_params


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_gpu", type=int, default=1)
    parser.add_argument("--n_epoch", type=int, default=3)
    parser.add_argument("--lr", type=float, default=5e-4)
    args = parser.parse_args()
    init_gpu_params(args)
    student = torch.nn.Linear(16, 16)
    teacher = torch.nn.Linear(16, 16)
    loader = torch.utils.data.DataLoader(torch.load("dump.pt", map_location="cpu"), batch_size=8, drop_last=True)
    distiller = Distiller(params=args, student=student, teacher=teacher, loader=loader)
    distiller.train()


if __name__ == "__main__":
    main()
