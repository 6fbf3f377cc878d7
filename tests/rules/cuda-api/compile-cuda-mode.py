"""Compilation presets."""
import torch


def compile_for_training(model):
    # expect: cuda-api.compile-cuda-mode
    return torch.compile(model, mode="max-autotune")


def compile_for_decode(model):
    # expect: cuda-api.compile-cuda-mode
    return torch.compile(model, mode="reduce-overhead", fullgraph=True)


def compile_default(model):
    # ok: cuda-api.compile-cuda-mode
    return torch.compile(model, mode="default", backend="neuron")
