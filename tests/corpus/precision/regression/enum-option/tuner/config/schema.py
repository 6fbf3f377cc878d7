from dataclasses import dataclass, field
from enum import Enum


class TrainMode(str, Enum):
    SFT = "sft"
    DISTILL = "distill"
    REWARD = "reward"


class Precision(str, Enum):
    BF16 = "bf16"
    FP8 = "fp8"


@dataclass
class TrainConfig:
    model_path: str = "base"
    mode: TrainMode | None = None  # plain supervised fine-tuning unless a mode is given
    precision: Precision = Precision.BF16
    lr: float = 1e-4
