from torch import nn

from ops import AlignedPool, RotatedAlign


class Pooler(nn.Module):
    def __init__(self, output_size, pooler_type):
        super().__init__()
        if pooler_type == "ROIAlignV2":
            self.levels = nn.ModuleList(AlignedPool(output_size) for _ in range(2))
        elif pooler_type == "ROIAlignRotated":
            self.levels = nn.ModuleList(RotatedAlign(output_size) for _ in range(2))
        else:
            raise ValueError(pooler_type)

    def forward(self, x, rois):
        return [level(x, rois) for level in self.levels]


class Head(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        pooler_type = cfg.MODEL.POOLER_TYPE
        self.pooler = Pooler(7, pooler_type=pooler_type)

    def forward(self, x, rois):
        return self.pooler(x, rois)
