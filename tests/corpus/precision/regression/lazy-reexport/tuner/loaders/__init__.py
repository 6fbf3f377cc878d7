"""Loaders, imported on first use."""

import importlib

__all__ = ["ModelLoader", "load_tokenizer", "export_onnx"]

_LAZY_IMPORTS = {
    "ModelLoader": ".model",
    "load_tokenizer": ".tokenizer",
    "export_onnx": ".export",
}


def __getattr__(name):
    if name in _LAZY_IMPORTS:
        module = importlib.import_module(_LAZY_IMPORTS[name], __name__)
        return getattr(module, name)
    raise AttributeError(name)
