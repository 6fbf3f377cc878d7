from dataclasses import dataclass, replace


class Configurable:
    """A component built from its nested Config: `Owner.Config(...).build()` makes an Owner."""

    @dataclass(kw_only=True)
    class Config:
        def build(self, **kwargs):
            return self._owner(config=replace(self), **kwargs)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.Config._owner = cls
