"""Mask containers: the same method name on two classes (a receiver of unknown type reaches both)."""
import torch


class BitMasks:
    def __init__(self, tensor):
        self.tensor = tensor

    def crop_and_resize(self, boxes, size):
        # expect: dynamic-graph.data-dependent-shape-method
        rows = self.tensor.any(dim=1).nonzero()
        return torch.nn.functional.interpolate(self.tensor[:, None].float(), size=(size, size)), rows


class PolygonMasks:
    def __init__(self, polygons):
        self.polygons = polygons

    def crop_and_resize(self, boxes, size):
        return torch.zeros(len(self.polygons), size, size, device=boxes.device)


class Boxes:
    def __init__(self, tensor):
        self.tensor = tensor

    def clip(self, size):
        # ok: dynamic-graph.data-dependent-shape-method
        bad = (self.tensor < 0).nonzero()
        self.tensor.clamp_(min=0, max=size)
        return bad
