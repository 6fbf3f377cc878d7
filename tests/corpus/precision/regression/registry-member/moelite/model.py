import copy

from torch import nn

import moelite.layers  # noqa: F401  (fills the registries)
from moelite.defaults import ffn_config_defaults
from moelite.registry import ffns, ffns_with_megablocks, fused_norms


class Block(nn.Module):
    def __init__(self, d_model, ffn_config=None):
        super().__init__()
        ffn_config = ffn_config if ffn_config is not None else copy.deepcopy(ffn_config_defaults)
        if ffn_config["ffn_type"] in ffns_with_megablocks:
            import megablocks

            self.ffn = ffns_with_megablocks.get(ffn_config["ffn_type"])(d_model)
            self.moe_world_size = megablocks.layers.mpu.get_expert_parallel_world_size(None)
        else:
            self.ffn = ffns.get(ffn_config["ffn_type"])(d_model)
        if ffn_config["norm_type"] in fused_norms:
            from apex.normalization import FusedLayerNorm

            self.norm = FusedLayerNorm(d_model)
        else:
            self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        return x + self.ffn(self.norm(x))
