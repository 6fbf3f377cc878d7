from dataclasses import dataclass


@dataclass
class TrainConfig:
    lr: float = 3e-4
    init_scale: float = 2.0 ** 16
    amp: bool = False
    fused: bool = True
