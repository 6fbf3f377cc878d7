import torch
import torch.distributed as dist


def setup_dist():
    backend = "gloo" if not torch.cuda.is_available() else "nccl"
    dist.init_process_group(backend=backend)


def setup_plain():
    backend = "nccl" if not torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)


def train(model, loader, optimizer):
    setup_dist()
    setup_plain()
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
