"""Model compilation options."""
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
