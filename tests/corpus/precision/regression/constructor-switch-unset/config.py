"""The dataclass config: the xformers attention config defaults to None."""
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class EncoderConfig:
    embed_dim: int = 512
    attention_heads: int = 8
    xformers_att_config: Optional[str] = field(default=None, metadata={"help": "xformers attention config"})


@dataclass
class ModelConfig:
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
