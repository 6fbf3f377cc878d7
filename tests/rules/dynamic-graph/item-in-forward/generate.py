"""Greedy decoding with the sliding-window cache."""
import torch

from tinylm.cache import SlidingKVCache
from tinylm.model import Block


@torch.inference_mode()
def generate(block, prompt, steps):
    block.kv_cache = SlidingKVCache(1, 4, 256, 16)
    x = prompt
    for i in range(steps):
        pos = torch.arange(i, i + x.shape[1])
        x = block(x, input_pos=pos)[:, -1:]
    return x


if __name__ == "__main__":
    print(generate(Block(64, 4), torch.randn(1, 8, 64), 16).shape)
