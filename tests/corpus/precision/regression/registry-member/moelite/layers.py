import torch
from torch import nn

from moelite.registry import ffns, ffns_with_megablocks, fused_norms


class MLP(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.up = nn.Linear(d_model, 4 * d_model)
        self.down = nn.Linear(4 * d_model, d_model)

    def forward(self, x):
        return self.down(torch.nn.functional.gelu(self.up(x)))


def build_mb_moe(d_model):
    import megablocks.layers.moe

    return megablocks.layers.moe.MoE(megablocks.layers.arguments.Arguments(hidden_size=d_model))


ffns.register("mlp", func=MLP)
ffns_with_megablocks.register("mb_moe", func=build_mb_moe)
ffns_with_megablocks.register("mb_dmoe", func=build_mb_moe)


@fused_norms.register("low_precision_layernorm")
def build_fused_norm(d_model):
    from apex.normalization import FusedLayerNorm

    return FusedLayerNorm(d_model)
