"""A repository module that happens to be called nccl (host-side collectives for tests)."""


def all_reduce(tensors, op="sum"):
    # ok: cuda-api.nccl-backend
    return tensors
