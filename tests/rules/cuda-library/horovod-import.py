"""Data-parallel training with Horovod."""
import torch
# expect: cuda-library.horovod-import
import horovod.torch as hvd

try:
    # ok: cuda-library.horovod-import
    import horovod
except ImportError:
    horovod = None

# ok: cuda-library.horovod-import
import torch.distributed as dist


def setup(model, lr):
    hvd.init()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr * hvd.size())
    optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters())
    hvd.broadcast_parameters(model.state_dict(), root_rank=0)
    return optimizer
