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


def train_multiscale(model, loader, optimizer, scales=(480, 512, 544, 576, 608)):
    for step, (images, targets) in enumerate(loader):
        if step % 10 == 0:
            # expect: dynamic-shape.random-input-size
            s = random.choice(scales)
        images = F.interpolate(images, size=(s, s), mode="bilinear", align_corners=False)
        loss = model(images, targets)
        loss.backward()
        optimizer.step()


def dropout_like(x):
    # ok: dynamic-shape.random-input-size
    p = random.random()
    return x * (p > 0.1)
