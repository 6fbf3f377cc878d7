"""Plugin families: each subclass keeps its own name -> implementation table."""
from typing import Any


class BasePlugin:
    _registry: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._registry = {}

    def __init__(self, name: str | None = None) -> None:
        self.name = name

    def register(self):
        def decorator(obj: Any) -> Any:
            type(self)._registry[self.name] = obj
            return obj

        return decorator

    def _resolve(self) -> Any:
        return type(self)._registry[self.name]

    def __call__(self, *args, **kwargs) -> Any:
        return self._resolve()(*args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._resolve(), attr)
