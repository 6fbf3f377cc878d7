import torch

from pkg import dist_util
from pkg.train_util import TrainLoop


def main():
    dist_util.setup_dist()
    model = torch.nn.Linear(4, 1)
    TrainLoop(model=model, data=[torch.zeros(8, 4)], lr=1e-4).run_loop()


if __name__ == "__main__":
    main()
