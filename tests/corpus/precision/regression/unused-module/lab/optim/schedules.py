import math


def cosine(step, total, base_lr):
    return base_lr * 0.5 * (1 + math.cos(math.pi * step / total))
