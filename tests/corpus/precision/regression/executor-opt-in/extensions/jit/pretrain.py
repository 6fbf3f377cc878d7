"""Pretraining with a JIT compiler; the compiler's executors are chosen on the command line."""
import sys
from pathlib import Path

import torch

from fastlm.model import MLP

sys.path.append(str(Path(__file__).parent))


def jit(fn, executors):
    from fused.executor import fused_ex  # registers the executor so that `--executors fused` can pick it

    import thunder

    return thunder.jit(fn, executors=executors)


def main(steps: int = 100, executors: tuple = ("sdpa", "nvfuser", "torch")):
    model = MLP(64)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    step_fn = jit(lambda x: model(x).pow(2).mean(), executors)
    for _ in range(steps):
        loss = step_fn(torch.randn(8, 64))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
