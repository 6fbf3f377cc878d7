import torch


def masked_mean(values, mask):
    return (values * mask).sum() / mask.sum().clamp(min=1)
