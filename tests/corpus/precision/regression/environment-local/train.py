import os

import torch

from model import Decoder

# The training script always asks for the stats.
os.environ["DECODER_STATS"] = "1"


def main():
    model = Decoder(64, 128)
    opt = torch.optim.AdamW(model.parameters())
    for step in range(100):
        x = torch.randn(8, 64)
        loss = model(x).logsumexp(-1).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
