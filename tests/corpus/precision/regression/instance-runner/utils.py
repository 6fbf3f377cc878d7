import torch


def init_gpu_params(params):
    if params.n_gpu <= 0:
        params.local_rank = 0
        return
    assert torch.cuda.is_available()
    params.local_rank = 0
    torch.cuda.set_device(params.local_rank)
