import torch

from pooling import Pooler


@torch.inference_mode()
def generate(model: Pooler, x: torch.Tensor):
    mask, idcs = model.pool_mask(x, return_idcs=True)
    return [x[0, i] for i in idcs]


if __name__ == "__main__":
    print(generate(Pooler(16), torch.randn(1, 8, 16)))
