from dataclasses import dataclass, field


@dataclass
class AlgorithmConfig:
    adv_estimator: str = "grpo"
    kl_coef: float = 1e-3


@dataclass
class TrainerConfig:
    algorithm: AlgorithmConfig = field(default_factory=AlgorithmConfig)
    total_steps: int = 100
