"""Wrappers around ops whose output shape depends on the data."""
import numpy as np
import torch


def nonzero_tuple(x):
    """An as_tuple=True nonzero that also scripts."""
    if torch.jit.is_scripting():
        if x.dim() == 0:
            return x.unsqueeze(0).nonzero().unbind(1)
        return x.nonzero().unbind(1)
    return x.nonzero(as_tuple=True)


def foreground_indices(labels, background):
    # A wrapper of a wrapper: its own callers are reported, not this line.
    return nonzero_tuple((labels >= 0) & (labels != background))[0]


def host_indices(mask):
    return np.flatnonzero(np.asarray(mask))


def masked_mean(x, mask):
    return (x * mask).sum() / mask.sum().clamp(min=1)
