import torch

from training import pretrain

if __name__ == "__main__":
    pretrain(torch.nn.Linear(8, 8), {"train_batch_size": 8}, iter([]), steps=10, pipe=False)
