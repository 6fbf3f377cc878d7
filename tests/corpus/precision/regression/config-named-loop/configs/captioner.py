from dataclasses import dataclass


@dataclass
class Captioner:
    engine = "train_captioner"
    lr: float = 1e-4
    total_steps: int = 10000
