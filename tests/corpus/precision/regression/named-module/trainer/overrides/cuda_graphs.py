"""Captures the step in a CUDA graph. Listed by configs/llama_cuda_graphs.yaml."""
import torch

from trainer.registry import override


@override("train_step")
def capture(step_fn):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step_fn()
    return graph
