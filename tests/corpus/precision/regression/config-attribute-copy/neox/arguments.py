from dataclasses import dataclass


@dataclass
class NeoXArgsModel:
    rope_fusion: bool = False
    bias_gelu_fusion: bool = True
    moe_num_experts: int = 1
    hidden_size: int = 768
