"""Helpers a fine-tune calls in its setup and again from the evaluation inside its loop."""
import torch


def parse_devices(devices):
    if devices == "auto":
        return torch.cuda.device_count() or 1
    return int(devices)


def evaluate(model, loader, devices):
    world = parse_devices(devices)
    model.eval()
    with torch.no_grad():
        losses = [model(batch).mean() for batch in loader]
    model.train()
    return torch.stack(losses).mean() / world
