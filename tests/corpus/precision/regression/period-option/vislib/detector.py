import torch
from torch import nn

from vislib.events import get_event_storage


def to_rgb(image):
    if isinstance(image, torch.Tensor):
        image = image.cpu().numpy()
    return image[:, :, ::-1]


class Detector(nn.Module):
    def __init__(self, backbone, head, vis_period: int = 0):
        super().__init__()
        self.backbone = backbone
        self.head = head
        self.vis_period = vis_period

    def visualize_training(self, images, proposals):
        storage = get_event_storage()
        for image, boxes in zip(images, proposals):
            canvas = to_rgb(image.permute(1, 2, 0))
            storage.put_image("proposals", canvas, boxes.detach().cpu().numpy())

    def forward(self, images, targets):
        features = self.backbone(images)
        proposals, losses = self.head(features, targets)
        if self.vis_period > 0:
            storage = get_event_storage()
            if storage.iter % self.vis_period == 0:
                self.visualize_training(images, proposals)
        return losses
