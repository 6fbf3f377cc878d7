"""Training loader with static batch size."""
from torch.utils.data import DataLoader


def loaders(train_ds, val_ds, bs):
    # expect: neuron-ready.drop-last-loader
    train = DataLoader(train_ds, batch_size=bs, shuffle=True, drop_last=True)
    # ok: neuron-ready.drop-last-loader
    val = DataLoader(val_ds, batch_size=bs, drop_last=False)
    return train, val
