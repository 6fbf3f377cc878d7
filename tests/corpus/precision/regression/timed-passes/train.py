import time

import torch

from model import TinyGPT


def main():
    model = TinyGPT().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(1000):
        t0 = time.time()
        tokens = torch.randint(0, 512, (16, 256), device="cuda")
        loss = torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), tokens.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch.cuda.synchronize()
        print(step, time.time() - t0)


if __name__ == "__main__":
    main()
