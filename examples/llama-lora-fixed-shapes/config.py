"""Typed training configuration, loaded from a YAML file."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml


@dataclass
class ModelConfig:
    name: str
    gradient_checkpointing: bool = True


@dataclass
class LoraSettings:
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = field(default_factory=lambda: ["q_proj", "v_proj"])


@dataclass
class DataConfig:
    dataset: str
    split: str = "train"
    eval_fraction: float = 0.02
    block_size: int = 1024
    num_proc: int = 4


@dataclass
class TrainConfig:
    model: ModelConfig
    lora: LoraSettings
    data: DataConfig
    seed: int = 1234
    max_steps: int = 1000
    micro_batch_size: int = 1
    grad_accum: int = 8
    lr: float = 2e-4
    weight_decay: float = 0.0
    warmup_steps: int = 100
    max_grad_norm: float = 1.0
    log_every: int = 10
    eval_every: int = 250
    save_every: int = 250
    compile: bool = False


def load_config(path: Path) -> TrainConfig:
    """Reads a YAML file into a TrainConfig; unknown keys raise TypeError."""
    raw = yaml.safe_load(path.read_text())
    return TrainConfig(
        model=ModelConfig(**raw.pop("model")),
        lora=LoraSettings(**raw.pop("lora")),
        data=DataConfig(**raw.pop("data")),
        **raw,
    )
