"""Resumable checkpoints: the LoRA adapter plus optimizer, scheduler and step."""
from __future__ import annotations

from pathlib import Path

import torch
from peft import PeftModel, set_peft_model_state_dict
from safetensors.torch import load_file

STATE_FILE = "trainer_state.pt"


def save_checkpoint(output_dir: Path, step: int, model: PeftModel, optimizer, scheduler) -> Path:
    """Writes step-NNNNNN/ with adapter_model.safetensors and trainer_state.pt; returns the folder."""
    path = output_dir / f"step-{step:06d}"
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    torch.save(
        {
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
            "cpu_rng": torch.get_rng_state(),
        },
        path / STATE_FILE,
    )
    return path


def latest_checkpoint(output_dir: Path) -> Path | None:
    """The newest complete checkpoint folder in output_dir, or None."""
    done = sorted(p for p in output_dir.glob("step-*") if (p / STATE_FILE).exists())
    return done[-1] if done else None


def load_checkpoint(path: Path, model: PeftModel, optimizer, scheduler) -> int:
    """Restores adapter, optimizer and scheduler in place; returns the step to continue from."""
    set_peft_model_state_dict(model, load_file(str(path / "adapter_model.safetensors")))
    state = torch.load(path / STATE_FILE, map_location="cpu", weights_only=True)
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["cpu_rng"])
    return int(state["step"])
