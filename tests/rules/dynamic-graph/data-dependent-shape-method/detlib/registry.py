"""A name -> class table, filled by decorators."""


class Registry:
    def __init__(self, name):
        self._name = name
        self._table = {}

    def register(self):
        def deco(cls):
            self._table[cls.__name__] = cls
            return cls

        return deco

    def get(self, name):
        return self._table[name]


MODELS = Registry("MODELS")
HEADS = Registry("HEADS")
ASSIGNERS = Registry("ASSIGNERS")
