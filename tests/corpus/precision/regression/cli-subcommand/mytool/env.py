import torch


def print_env():
    print("gpu", torch.cuda.get_device_name(), torch.cuda.device_count())
