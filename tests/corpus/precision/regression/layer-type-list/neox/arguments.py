from dataclasses import dataclass


@dataclass
class NeoXArgs:
    num_layers: int = 4
    hidden_size: int = 256
    # One entry per layer, filled from the run's config ("global" when it names none).
    attention_config: list = None
    norm: str = "layernorm"

    @classmethod
    def from_dict(cls, args):
        return cls(**args)
