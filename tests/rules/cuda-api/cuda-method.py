"""Classic single-GPU training script."""
import torch
from torch import nn
from torch.utils.data import DataLoader


def train(model: nn.Module, loader: DataLoader, epochs: int, lr: float):
    # expect: cuda-api.cuda-method
    model = model.cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for images, labels in loader:
            # expect: cuda-api.cuda-method
            images, labels = images.cuda(non_blocking=True), labels.cuda(non_blocking=True)
            loss = criterion(model(images), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()


def maybe_to_gpu(model):
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-method
        model.cuda()
    # ok: cuda-api.cuda-method
    return model.to(torch.device("cpu"))


def summarize(stats: dict):
    # ok: cuda-api.cuda-method
    return {k: v for k, v in stats.items()}
