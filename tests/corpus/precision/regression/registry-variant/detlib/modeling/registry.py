class Registry:
    def __init__(self, name):
        self._name = name
        self._obj_map = {}

    def register(self):
        def deco(cls):
            self._obj_map[cls.__name__] = cls
            return cls

        return deco

    def get(self, name):
        return self._obj_map[name]


HEADS = Registry("HEADS")
