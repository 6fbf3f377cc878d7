from lightning.fabric.plugins import Precision


class EmbeddingPrecision(Precision):
    """Keeps embeddings in full precision."""
