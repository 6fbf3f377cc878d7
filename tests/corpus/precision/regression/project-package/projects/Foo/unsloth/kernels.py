import torch


def fast_cross_entropy(logits, labels):
    return torch.nn.functional.cross_entropy(logits, labels)
