import math
import sys

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, loss_scaler, max_norm=0.0):
    model.train()
    for samples, targets in data_loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        with torch.cuda.amp.autocast():
            loss = criterion(model(samples), targets)
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            sys.exit(1)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters())
