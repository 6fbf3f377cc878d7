from .generation import generate
from .plugin import DiffusePlugin

__all__ = ["DiffusePlugin", "generate"]
