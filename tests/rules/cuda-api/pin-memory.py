"""Data loaders for the vision model."""
from torch.utils.data import DataLoader


def loaders(train_ds, val_ds, batch_size, workers):
    # expect: cuda-api.pin-memory
    train = DataLoader(train_ds, batch_size=batch_size, shuffle=True, num_workers=workers, pin_memory=True)
    # ok: cuda-api.pin-memory
    val = DataLoader(val_ds, batch_size=batch_size, num_workers=workers, pin_memory=False)
    return train, val
