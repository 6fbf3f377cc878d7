"""Wraps the model in torch.compile when asked to."""
import torch


def maybe_compile(model, enabled, backend=None):
    if not enabled:
        return model
    if backend is None:
        # expect: cuda-api.compile-without-neuron-backend
        return torch.compile(model)
    # ok: cuda-api.compile-without-neuron-backend
    return torch.compile(model, backend=backend, fullgraph=True)


# expect: cuda-api.compile-without-neuron-backend
@torch.compile(fullgraph=True)
def fused_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.79788456 * (x + 0.044715 * x * x * x)))


# ok: cuda-api.compile-without-neuron-backend
@torch.compile(backend="neuron")
def fused_silu(x):
    return x * torch.sigmoid(x)
