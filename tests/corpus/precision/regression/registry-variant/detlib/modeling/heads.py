import torch
from torch import nn

from detlib.modeling.registry import HEADS


@HEADS.register()
class StandardHeads(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.proj = nn.Linear(cfg.DIM, 4)

    def forward(self, feats, targets):
        boxes = self.proj(feats)
        num_fg = (targets[:, 0] > 0).sum().item()
        return torch.nn.functional.smooth_l1_loss(boxes, targets) / max(num_fg, 1)


@HEADS.register()
class RotatedHeads(StandardHeads):
    def forward(self, feats, targets):
        boxes = self.proj(feats)
        keep = rotated_iou(boxes, targets) > 0.5
        return torch.nn.functional.smooth_l1_loss(boxes[keep], targets[keep])


def rotated_iou(boxes, targets):
    return torch.ops.detlib.box_iou_rotated(boxes, targets)


def build_heads(cfg):
    return HEADS.get(cfg.MODEL.HEADS.NAME)(cfg)
