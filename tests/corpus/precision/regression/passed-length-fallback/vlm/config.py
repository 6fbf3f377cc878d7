from dataclasses import dataclass


@dataclass
class VLMConfig:
    lm_max_length: int = 1024
    hidden: int = 64


@dataclass
class EvalConfig:
    max_length: int | None = None
