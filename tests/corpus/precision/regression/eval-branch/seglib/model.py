import torch.nn.functional as F
from torch import nn

from seglib.postprocess import merge_segments


class PanopticNet(nn.Module):
    def __init__(self, backbone, n_classes):
        super().__init__()
        self.backbone = backbone
        self.sem_head = nn.Conv2d(256, n_classes, 1)
        self.ins_head = nn.Conv2d(256, 1, 1)

    def forward(self, images, sem_targets=None):
        features = self.backbone(images)
        sem_logits = self.sem_head(features)
        if self.training:
            return {"loss_sem": F.cross_entropy(sem_logits, sem_targets)}
        ins = self.ins_head(features).sigmoid() > 0.5
        return merge_segments(sem_logits.argmax(1), ins.squeeze(1).long())
