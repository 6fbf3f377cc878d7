"""Overlapped prefetch and CUDA-graph capture of the decode step."""
import torch


class Prefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        # expect: cuda-api.cuda-streams-and-graphs
        self.stream = torch.cuda.Stream()

    def next(self):
        batch = next(self.loader)
        # expect: cuda-api.cuda-streams-and-graphs
        with torch.cuda.stream(self.stream):
            batch = {k: v.to("cuda", non_blocking=True) for k, v in batch.items()}
        return batch


def capture(model, static_input):
    # expect: cuda-api.cuda-streams-and-graphs
    graph = torch.cuda.CUDAGraph()
    # expect: cuda-api.cuda-streams-and-graphs
    with torch.cuda.graph(graph):
        static_out = model(static_input)
    return graph, static_out


def time_it(fn):
    # ok: cuda-api.cuda-streams-and-graphs
    start = torch.accelerator.current_stream()
    # ok: cuda-api.cuda-streams-and-graphs
    timer = torch.cuda.Event(enable_timing=True)
    # expect: cuda-api.cuda-streams-and-graphs
    done = torch.cuda.Event()
    fn()
    done.record()
    return start, timer
