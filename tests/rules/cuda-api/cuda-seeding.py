"""Reproducibility helpers of a training script."""
import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    # ok: cuda-api.cuda-seeding
    torch.manual_seed(seed)
    # expect: cuda-api.cuda-seeding
    torch.cuda.manual_seed_all(seed)


def rng_state():
    # expect: cuda-api.cuda-seeding
    return {"cpu": torch.get_rng_state(), "cuda": torch.cuda.get_rng_state_all()}
