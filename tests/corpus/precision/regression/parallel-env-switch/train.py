import os

import torch

from ring.attention import Attention, apply_context_parallel


def main(cp_world_size=1):
    os.environ["SYNC_EVERY_LAYER"] = "1"  # set by the script itself on every run
    model = apply_context_parallel(Attention(), cp_world_size)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
