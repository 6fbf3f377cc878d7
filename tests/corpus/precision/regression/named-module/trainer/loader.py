import importlib


def import_overrides(targets: list[str]) -> None:
    """Imports each `pkg.module` a run names, so that its `@override` registrations take effect."""
    for target in targets:
        importlib.import_module(target)
