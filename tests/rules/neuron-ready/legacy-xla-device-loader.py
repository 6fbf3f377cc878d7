"""Data fed through the PyTorch/XLA parallel loader."""
import torch
import torch_xla.distributed.parallel_loader as pl
from torch_xla.distributed.parallel_loader import MpDeviceLoader


def loaders(dataset, device):
    # ok: neuron-ready.legacy-xla-device-loader
    train_loader = torch.utils.data.DataLoader(dataset, batch_size=8, drop_last=True)
    # expect: neuron-ready.legacy-xla-device-loader
    a = pl.MpDeviceLoader(train_loader, device)
    # expect: neuron-ready.legacy-xla-device-loader
    b = MpDeviceLoader(
        train_loader,
        device,
    )
    return a, b
