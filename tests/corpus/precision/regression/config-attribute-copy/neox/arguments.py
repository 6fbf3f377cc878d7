from dataclasses import dataclass

import torch


@dataclass
class NeoXArgsModel:
    rope_fusion: bool = False
    bias_gelu_fusion: bool = True
    moe_num_experts: int = 1
    moe_expert_interval: int = 1
    hidden_size: int = 768
    global_num_gpus: int = 0

    def __post_init__(self):
        self.calculate_derived()

    def calculate_derived(self):
        if not self.global_num_gpus:
            self.global_num_gpus = torch.cuda.device_count()

    @classmethod
    def from_dict(cls, args):
        return cls(**args)
