import importlib


class BasePlugin:
    def pre_model_load(self, cfg):
        pass


def load_plugin(name: str) -> BasePlugin:
    module_name, class_name = name.rsplit(".", 1)
    module = importlib.import_module(module_name)
    return getattr(module, class_name)()


def load_plugins(cfg) -> list[BasePlugin]:
    return [load_plugin(name) for name in (cfg.get("plugins") or [])]
