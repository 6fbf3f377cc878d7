import torch


def sample_points(coarse, count):
    uncertain = coarse.abs() < 0.1
    return coarse[uncertain][:count]
