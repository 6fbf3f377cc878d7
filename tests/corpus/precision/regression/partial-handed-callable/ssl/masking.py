"""Block masking for masked-image pretraining, computed on numpy arrays in the data-loader workers."""
import math
import random

import numpy as np


class BlockMasker:
    def __init__(self, grid, min_patches=4):
        self.height, self.width = grid
        self.min_patches = min_patches
        self.log_aspect = (math.log(0.3), math.log(1 / 0.3))

    def _mask(self, mask, budget):
        delta = 0
        for _ in range(10):
            area = random.uniform(self.min_patches, budget)
            aspect = math.exp(random.uniform(*self.log_aspect))
            h = int(round(math.sqrt(area * aspect)))
            w = int(round(math.sqrt(area / aspect)))
            if w < self.width and h < self.height:
                top = random.randint(0, self.height - h)
                left = random.randint(0, self.width - w)
                covered = mask[top : top + h, left : left + w].sum()
                if 0 < h * w - covered <= budget:
                    mask[top : top + h, left : left + w] = True
                    delta += h * w - covered
            if delta > 0:
                break
        return delta

    def __call__(self, num_patches=0):
        mask = np.zeros((self.height, self.width), dtype=bool)
        count = 0
        while count < num_patches:
            delta = self._mask(mask, num_patches - count)
            if delta == 0:
                break
            count += delta
        return mask
