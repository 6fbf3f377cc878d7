import math
import sys

import torch

from util.misc import MetricLogger, log_losses


def train_one_epoch(model, criterion, loader, optimizer):
    metric_logger = MetricLogger()
    for samples, targets in loader:
        outputs = model(samples)
        loss_dict = criterion(outputs, targets)
        loss = sum(loss_dict.values())
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            sys.exit(1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss_value)
        metric_logger.update(lr=optimizer.param_groups[0]["lr"], batch=len(samples))
        log_losses(metric_logger.meters, loss=loss_value, **loss_dict)
