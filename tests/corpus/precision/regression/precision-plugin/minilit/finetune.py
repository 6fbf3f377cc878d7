# A fine-tuning entry whose command-line options are the parameters of `setup` (jsonargparse style):
# bitsandbytes runs only with `--quantize bnb.*`, which is off by default.
from typing import Literal, Optional

import torch
from lightning.fabric import Fabric
from lightning.fabric.plugins import BitsandbytesPrecision

from minilit.model import TinyLM


def setup(
    steps: int = 10,
    quantize: Optional[Literal["bnb.nf4", "bnb.int8-training"]] = None,
    precision: Optional[str] = None,
) -> None:
    plugins = None
    if quantize is not None:
        plugins = BitsandbytesPrecision(quantize[4:], torch.bfloat16)
        precision = None
    fabric = Fabric(devices=1, precision=precision, plugins=plugins)
    fabric.launch(main, steps)


def main(fabric: Fabric, steps: int) -> None:
    model = fabric.setup_module(TinyLM())
    if isinstance(fabric.strategy.precision, BitsandbytesPrecision):
        from bitsandbytes.nn import StableEmbedding

        model.embed = StableEmbedding(model.embed.num_embeddings, model.embed.embedding_dim)
    optimizer = fabric.setup_optimizers(torch.optim.AdamW(model.parameters(), lr=1e-4))
    fit(fabric, model, optimizer, steps)


def fit(fabric: Fabric, model: TinyLM, optimizer: torch.optim.Optimizer, steps: int) -> None:
    for _ in range(steps):
        tokens = torch.randint(0, 128, (2, 16), device=fabric.device)
        loss = model(tokens).logsumexp(-1).mean()
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    from jsonargparse import CLI

    CLI(setup)
