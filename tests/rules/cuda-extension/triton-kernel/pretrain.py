"""Pretraining with a JIT; extra executors are registered by plugins and picked with --executors."""
import torch


def compile_step(fn, executors):
    import plugins.fastnorm.executor  # noqa: F401  (registers the "fastnorm" executor)
    import thunder

    return thunder.jit(fn, executors=executors)


def main(model, loader, executors: tuple = ("sdpa", "torchcompile", "torch")):
    optimizer = torch.optim.AdamW(model.parameters())
    step = compile_step(lambda batch: model(batch).mean(), executors)
    for batch in loader:
        loss = step(batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
