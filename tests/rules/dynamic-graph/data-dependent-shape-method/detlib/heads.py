"""Heads built from a registry; their parts are handed to the constructor by from_config."""
import torch
from torch import nn

from .registry import ASSIGNERS, HEADS


@ASSIGNERS.register()
class IoUAssigner:
    """A callable object, built by name from the registry: its __call__ runs in the head's forward."""

    def __init__(self, cfg):
        self.threshold = cfg.threshold

    def __call__(self, quality):
        best = quality.max(dim=0).values
        # expect: dynamic-graph.data-dependent-shape-method
        return (best > self.threshold).nonzero()


class Matcher:
    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, quality):
        # expect: dynamic-graph.data-dependent-shape-method
        return (quality > self.threshold).nonzero()


class BoxPredictor(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.cls = nn.Linear(dim, classes)

    def forward(self, x):
        return self.cls(x)

    def losses(self, logits, labels):
        # expect: dynamic-graph.data-dependent-shape-method
        fg = (labels > 0).nonzero()
        return logits[fg[:, 0]].logsumexp(-1).mean()


class MaskPredictor(nn.Module):
    def forward(self, x):
        return x

    def losses(self, logits, labels):
        # ok: dynamic-graph.data-dependent-shape-method
        keep = labels.unique()
        return logits[keep].mean()


class KeypointPredictor(nn.Module):
    def forward(self, x):
        return x

    def losses(self, logits, labels):
        return logits.mean()


class DensePredictor(nn.Module):
    def forward(self, x):
        return x

    def losses(self, logits, labels):
        return logits.mean()


@HEADS.register()
class StandardHead(nn.Module):
    def __init__(self, predictor, matcher, cfg):
        super().__init__()
        self.predictor = predictor
        self.matcher = matcher
        self.assigner = ASSIGNERS.get(cfg.assigner)(cfg)

    @classmethod
    def from_config(cls, cfg):
        return {"predictor": BoxPredictor(cfg.dim, cfg.classes), "matcher": Matcher(cfg.threshold), "cfg": cfg}

    def forward(self, features, quality, labels, masks):
        logits = self.predictor(features)
        self.matcher(quality)
        self.assigner(quality)
        masks.crop_and_resize(quality.clip(0, 1), 28)
        return self.predictor.losses(logits, labels)


def build_head(cfg):
    return HEADS.get(cfg.head)(**StandardHead.from_config(cfg))
