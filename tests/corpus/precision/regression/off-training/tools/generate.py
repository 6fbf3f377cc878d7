# A sampling script: inference only, nothing in training calls it.
import torch

from train import Net


@torch.inference_mode()
def generate(model: Net, steps: int) -> torch.Tensor:
    x = torch.randn(1, 16)
    for _ in range(steps):
        x = model(x)
    torch.cuda.synchronize()
    print(f"peak memory {torch.cuda.max_memory_allocated() / 1e9:.2f} GB")
    return x


if __name__ == "__main__":
    generate(Net(), 8)
