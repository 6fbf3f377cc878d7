"""A package module named like the library it wraps: `import deepspeed` here is the library."""
import deepspeed


def wrap_model(model, config):
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config=config)
    return engine, optimizer
