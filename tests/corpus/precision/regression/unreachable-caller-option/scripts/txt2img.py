import argparse

import torch

from samplers.plms import PLMSSampler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plms", action="store_true")
    opt = parser.parse_args()
    model = torch.nn.Linear(8, 8)
    if opt.plms:
        sampler = PLMSSampler(model)
        print(sampler.sample((1, 8)))


if __name__ == "__main__":
    main()
