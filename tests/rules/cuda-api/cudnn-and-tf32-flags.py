"""Reproducibility and speed knobs set at start-up."""
import random

import numpy as np
import torch


def configure(seed, deterministic=False):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    # expect: cuda-api.cudnn-and-tf32-flags
    torch.backends.cudnn.benchmark = not deterministic
    # expect: cuda-api.cudnn-and-tf32-flags
    torch.backends.cudnn.deterministic = deterministic
    # expect: cuda-api.cudnn-and-tf32-flags
    torch.backends.cuda.matmul.allow_tf32 = True
    # ok: cuda-api.cudnn-and-tf32-flags
    torch.use_deterministic_algorithms(deterministic)
    # ok: cuda-api.cudnn-and-tf32-flags
    benchmark = torch.backends.cudnn.benchmark
    return benchmark
