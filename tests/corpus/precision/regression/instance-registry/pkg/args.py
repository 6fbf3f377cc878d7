from dataclasses import dataclass, field


@dataclass
class TrainArguments:
    model_name: str = "tiny-llama"
    optimizer_name: str = "adamw"
    quant_config: dict | None = field(default=None, metadata={"help": "quantize the base model (QLoRA)"})
    kernel_config: dict | None = field(default=None, metadata={"help": "comma-separated fused kernels"})

    def __post_init__(self) -> None:
        self.quant_config = dict(self.quant_config) if self.quant_config is not None else None
