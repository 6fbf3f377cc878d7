"""Process group initialisation on the legacy and the native stacks."""
import torch.distributed as dist
import torch_xla.distributed.xla_backend  # noqa: F401


def init(use_pjrt):
    if use_pjrt:
        # expect: neuron-ready.xla-process-group-backend
        dist.init_process_group("xla", init_method="pjrt://")
    else:
        # expect: neuron-ready.xla-process-group-backend
        dist.init_process_group(backend="xla")
    # ok: neuron-ready.xla-process-group-backend
    dist.init_process_group(backend="neuron", init_method="env://")
