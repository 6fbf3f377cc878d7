from dataclasses import dataclass, field
from enum import Enum


class AdapterType(str, Enum):
    LORA = "LORA"
    PROMPT = "PROMPT"


@dataclass
class AdapterConfig:
    adapter_type: AdapterType | None = field(default=None)


@dataclass
class PromptConfig(AdapterConfig):
    num_tokens: int = 8

    def __post_init__(self):
        # Each config subclass names its own adapter type: the field is always set.
        self.adapter_type = AdapterType.PROMPT
