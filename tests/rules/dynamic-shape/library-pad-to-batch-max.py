"""DETR-style detector wrapper around detectron2's batching."""
import torch.nn as nn
from detectron2.structures import ImageList

from util.misc import nested_tensor_from_tensor_list


class Detr(nn.Module):
    def preprocess_image(self, batched_inputs):
        images = [self.normalizer(x["image"].to(self.device)) for x in batched_inputs]
        # expect: dynamic-shape.library-pad-to-batch-max
        images = ImageList.from_tensors(images)
        return images

    def forward(self, samples):
        if isinstance(samples, (list, tuple)):
            # expect: dynamic-shape.library-pad-to-batch-max
            samples = nested_tensor_from_tensor_list(samples)
        # ok: dynamic-shape.library-pad-to-batch-max
        features = self.backbone(samples)
        return self.head(features)
