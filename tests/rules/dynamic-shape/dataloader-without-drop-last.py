"""Data loaders for pretraining."""
from torch.utils.data import DataLoader, DistributedSampler


def build_loaders(train_ds, val_ds, batch_size, workers=4):
    # expect: dynamic-shape.dataloader-without-drop-last
    train = DataLoader(train_ds, batch_size=batch_size, shuffle=True, num_workers=workers)
    # ok: dynamic-shape.dataloader-without-drop-last
    val = DataLoader(val_ds, batch_size=batch_size, shuffle=False, num_workers=workers)
    # ok: dynamic-shape.dataloader-without-drop-last
    train_static = DataLoader(train_ds, batch_size=batch_size, shuffle=True, drop_last=True)
    return train, val, train_static
