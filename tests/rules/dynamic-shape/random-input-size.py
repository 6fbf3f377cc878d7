"""Multi-scale detector training."""
import random

import torch
import torch.nn.functional as F

SCALES = [320, 416, 512, 608]


def train_epoch(model, loader, optimizer):
    for images, targets in loader:
        # expect: dynamic-shape.random-input-size
        size = random.choice(SCALES)
        images = F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False)
        loss = model(images, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def evaluate(model, images, size=512):
    # ok: dynamic-shape.random-input-size
    return model(F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False))
