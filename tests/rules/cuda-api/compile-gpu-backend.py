"""Model compilation options."""
import os

import torch


def compile_model(model, args):
    if args.compile == "inductor":
        # expect: cuda-api.compile-gpu-backend
        return torch.compile(model, backend="inductor", fullgraph=True)
    if args.compile == "graphs":
        # expect: cuda-api.compile-gpu-backend
        return torch.compile(model, backend="cudagraphs")
    # ok: cuda-api.compile-gpu-backend
    return torch.compile(model, backend="neuron", fullgraph=True)


def compile_loss(loss):
    # The environment variable only overrides the literal fallback, which is the default.
    backend = os.environ.get("TORCH_COMPILE_BACKEND", "inductor")
    # expect: cuda-api.compile-gpu-backend
    return torch.compile(loss, backend=backend)


def compile_head(head):
    backend = os.getenv("TORCH_COMPILE_BACKEND", default="neuron")
    # Neuron by default: like a parameter default, a setting the user could change (opt-in, low).
    # expect: cuda-api.compile-gpu-backend
    return torch.compile(head, backend=backend)


def compile_rebound(model, use_neuron):
    backend = os.environ.get("TORCH_COMPILE_BACKEND", "inductor")
    if use_neuron:
        backend = "neuron"
    # ok: cuda-api.compile-gpu-backend
    return torch.compile(model, backend=backend)
