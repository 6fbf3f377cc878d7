import argparse
import time

import torch
from torch import nn

from config import get_config


def throughput(model, logger):
    images = torch.randn(64, 3, 224, 224).cuda(non_blocking=True)
    for _ in range(50):
        model(images)
    torch.cuda.synchronize()
    tic = time.time()
    for _ in range(30):
        model(images)
    torch.cuda.synchronize()
    logger(f"throughput {30 * 64 / (time.time() - tic)}")


def main(config):
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).cuda()
    if config.THROUGHPUT_MODE:
        throughput(model, print)
        return
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(config.TRAIN.EPOCHS):
        x = torch.randn(16, 3, 224, 224).cuda()
        with torch.cuda.amp.autocast(enabled=config.AMP_ENABLE):
            loss = model(x).logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--throughput", action="store_true")
    main(get_config(parser.parse_args()))
