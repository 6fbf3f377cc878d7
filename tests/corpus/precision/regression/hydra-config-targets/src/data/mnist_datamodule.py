"""A LightningDataModule the trainer pulls its loaders from; only configs name it."""
import lightning as L
from torch.utils.data import DataLoader, random_split
from torchvision.datasets import MNIST
from torchvision.transforms import ToTensor


class MNISTDataModule(L.LightningDataModule):
    def __init__(self, data_dir, batch_size=64, num_workers=0, pin_memory=False):
        super().__init__()
        self.save_hyperparameters(logger=False)

    def setup(self, stage=None):
        dataset = MNIST(self.hparams.data_dir, train=True, transform=ToTensor())
        self.data_train, self.data_val = random_split(dataset, [55_000, 5_000])

    def train_dataloader(self):
        return DataLoader(self.data_train, batch_size=self.hparams.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.data_val, batch_size=self.hparams.batch_size, shuffle=False)

    def test_dataloader(self):
        return DataLoader(self.data_val, batch_size=self.hparams.batch_size, pin_memory=True)
