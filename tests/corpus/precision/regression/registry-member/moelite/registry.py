"""Registries of layer builders that configs select by name."""


class Registry:
    def __init__(self, name):
        self.name = name
        self._builders = {}

    def register(self, name, func=None):
        if func is None:
            return lambda f: self.register(name, f)
        self._builders[name] = func
        return func

    def get(self, name):
        return self._builders[name]

    def __contains__(self, name):
        return name in self._builders


ffns = Registry("ffns")
ffns_with_megablocks = Registry("ffns_with_megablocks")
fused_norms = Registry("fused_norms")
