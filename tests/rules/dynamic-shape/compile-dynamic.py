"""Compiles the model for variable-length batches."""
import torch


def compile_model(model, variable_length):
    if variable_length:
        # expect: dynamic-shape.compile-dynamic
        return torch.compile(model, dynamic=True)
    # ok: dynamic-shape.compile-dynamic
    return torch.compile(model, backend="neuron", dynamic=False, fullgraph=True)
