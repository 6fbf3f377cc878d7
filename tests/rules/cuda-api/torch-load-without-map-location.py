"""Resuming a fine-tune from checkpoints written by a GPU run."""
import os

import torch


def resume(model, optimizer, checkpoint_dir):
    checkpoint_name = os.path.join(checkpoint_dir, "adapter_model.bin")
    # expect: cuda-api.torch-load-without-map-location
    adapters_weights = torch.load(checkpoint_name)
    model.load_state_dict(adapters_weights, strict=False)
    # ok: cuda-api.torch-load-without-map-location
    state = torch.load(os.path.join(checkpoint_dir, "optimizer.pt"), map_location="cpu")
    optimizer.load_state_dict(state)
    # ok: cuda-api.torch-load-without-map-location
    extra = torch.load(os.path.join(checkpoint_dir, "extra.pt"), "cpu")
    # expect: cuda-api.torch-load-without-map-location
    scheduler_state = torch.load(os.path.join(checkpoint_dir, "scheduler.pt"), weights_only=True)
    return extra, scheduler_state
