# Control: a plugin class the repo always builds is not an option; its isinstance branch keeps its severity.
import torch
from lightning.fabric import Fabric

from minilit.model import TinyLM
from minilit.plugins import EmbeddingPrecision


def main(steps: int = 10) -> None:
    fabric = Fabric(devices=1, plugins=EmbeddingPrecision())
    model = fabric.setup_module(TinyLM())
    if isinstance(fabric.strategy.precision, EmbeddingPrecision):
        from bitsandbytes.nn import StableEmbedding

        model.embed = StableEmbedding(model.embed.num_embeddings, model.embed.embedding_dim)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(steps):
        loss = model(torch.randint(0, 128, (2, 16), device=fabric.device)).mean()
        fabric.backward(loss)
        optimizer.step()


if __name__ == "__main__":
    main()
