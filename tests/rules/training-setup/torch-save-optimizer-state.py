# target: xla
"""Checkpointing."""
import torch


def save_checkpoint(model, optimizer, scheduler, step, path):
    # expect: training-setup.torch-save-optimizer-state
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)
    # ok: training-setup.torch-save-optimizer-state
    torch.save(model.state_dict(), path + ".model")
