from dataclasses import dataclass, field


@dataclass
class TrainingConfig:
    lr: float = 1e-4


@dataclass
class DPOTrainingConfig(TrainingConfig):
    dpo_use_paged_optimizer: bool = False


@dataclass
class ModelConfig:
    use_qlora: bool = field(default=False, metadata={"help": "q"})


@dataclass
class DPOExperimentConfig(DPOTrainingConfig, ModelConfig):
    seed: int = 0
    pin_batches: bool = True
