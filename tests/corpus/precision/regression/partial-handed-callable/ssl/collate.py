import random

import torch


def collate_and_mask(samples, mask_ratio=(0.1, 0.5), masker=None):
    images = torch.stack([s[0] for s in samples])
    n = images.shape[-1] // 16
    masks = [torch.from_numpy(masker(int(n * n * random.uniform(*mask_ratio)))) for _ in samples]
    return {"images": images, "masks": torch.stack(masks)}
