import random

from PIL import ImageFilter, ImageOps


class Solarization(object):
    """Apply Solarization to the PIL image."""

    def __init__(self, p):
        self.p = p

    def __call__(self, img):
        if random.random() < self.p:
            return ImageOps.solarize(img)
        return img


class GaussianBlur(object):
    def __init__(self, p=0.5, radius_min=0.1, radius_max=2.0):
        self.prob = p
        self.radius_min = radius_min
        self.radius_max = radius_max

    def __call__(self, img):
        if random.random() > self.prob:
            return img
        return img.filter(ImageFilter.GaussianBlur(radius=random.uniform(self.radius_min, self.radius_max)))


class SkipLayers(object):
    """Drops the residual branch at random: the structure of the step changes."""

    def __init__(self, p):
        self.p = p

    def __call__(self, x, branch):
        if random.random() < self.p:
            return x
        return x + branch(x)
