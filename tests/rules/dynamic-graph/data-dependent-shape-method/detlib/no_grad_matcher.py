"""A @torch.no_grad matcher handed to the criterion through a builder: label assignment in training."""
import torch
from torch import nn


class HungarianMatcher(nn.Module):
    def __init__(self, cost):
        super().__init__()
        self.cost = cost

    @torch.no_grad()
    def forward(self, outputs, targets):
        # expect: dynamic-graph.data-dependent-shape-method
        present = targets.unique()
        return outputs[:, present].argmax(-1)


def build_matcher(args):
    return HungarianMatcher(cost=args.cost)


class SetCriterion(nn.Module):
    def __init__(self, num_classes, matcher):
        super().__init__()
        self.num_classes = num_classes
        self.matcher = matcher

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        return outputs.gather(1, indices[:, None]).mean()


def build_criterion(args):
    matcher = build_matcher(args)
    return SetCriterion(args.num_classes, matcher=matcher)
