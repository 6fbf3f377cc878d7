"""Overrides registered by name; a module that registers one is imported only when a run lists it."""
from typing import Callable

OVERRIDES: dict[str, Callable] = {}


def override(name: str) -> Callable[[Callable], Callable]:
    def decorator(fn: Callable) -> Callable:
        OVERRIDES[name] = fn
        return fn

    return decorator
