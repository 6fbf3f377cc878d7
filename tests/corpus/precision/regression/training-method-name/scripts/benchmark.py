import time

import torch


def benchmark(model, batch):
    torch.cuda.set_device(0)
    model.train()
    start = time.time()
    model(batch)
    return time.time() - start


if __name__ == "__main__":
    print(benchmark(torch.load("model.pt", map_location="cpu"), torch.zeros(8, 16)))
