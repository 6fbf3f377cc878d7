"""A LightningDataModule whose loader settings live in its constructor defaults."""
from dataclasses import dataclass

from torch.utils.data import DataLoader


class LMDataModule:
    def __init__(self, dataset, batch_size=8, shuffle=True, drop_last=False, pin_memory=False):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.pin_memory = pin_memory

    def train_dataloader(self):
        # expect: dynamic-shape.dataloader-drop-last-false
        return DataLoader(self.dataset, batch_size=self.batch_size, shuffle=self.shuffle, drop_last=self.drop_last)


@dataclass
class LoaderConfig:
    batch_size: int = 8
    drop_tail: bool = True


def build(dataset, cfg: LoaderConfig):
    # expect: dynamic-shape.dataloader-drop-last-false
    ragged = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True, drop_last=False)
    # ok: dynamic-shape.dataloader-drop-last-false
    full = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    # expect-low: dynamic-shape.dataloader-drop-last-false
    maybe = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True, drop_last=cfg.drop_tail)
    return ragged, full, maybe
