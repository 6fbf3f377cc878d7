from .cross_entropy import fused_cross_entropy  # noqa: F401
