import torch
from torch import nn

from maskkit.ops.points import sample_points


def flatten_valid(logits, labels, ignore=255):
    valid = labels != ignore
    keep = valid.nonzero().squeeze(1)
    return logits[keep], labels[keep]


class LovaszHinge(nn.Module):
    def forward(self, logits, labels):
        logits, labels = flatten_valid(logits.flatten(), labels.flatten())
        if labels.sum().item() == 0:
            return logits.sum() * 0.0
        return torch.relu(1.0 - logits * (2.0 * labels - 1.0)).mean()


def lovasz_hinge(logits, labels):
    return LovaszHinge()(logits, labels)
