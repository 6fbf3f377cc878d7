from torch import nn

from .heads import build_head
from .registry import MODELS


@MODELS.register()
class Detector(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = nn.Conv2d(3, cfg.dim, 3)
        self.head = build_head(cfg)

    def forward(self, images, quality, labels, masks):
        return self.head(self.backbone(images).mean((2, 3)), quality, labels, masks)


def build_model(cfg):
    model = MODELS.get(cfg.arch)(cfg)
    return model
