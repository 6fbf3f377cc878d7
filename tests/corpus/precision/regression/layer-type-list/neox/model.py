import torch

from neox.rwkv import RWKVResidualLayer
from neox.transformer import ParallelSelfAttention


class GPT(torch.nn.Module):
    def __init__(self, neox_args):
        super().__init__()
        layers = []
        for i in range(neox_args.num_layers):
            layer_type = neox_args.attention_config[i]
            if layer_type in ["gmlp", "amlp"]:
                layers.append(torch.nn.Linear(neox_args.hidden_size, neox_args.hidden_size))
            elif layer_type == "rwkv":
                layers.append(RWKVResidualLayer(neox_args, i))
            else:
                layers.append(ParallelSelfAttention(neox_args, i))
        self.layers = torch.nn.ModuleList(layers)
        if neox_args.norm == "fused_rmsnorm":
            from apex.normalization import FusedRMSNorm

            self.norm = FusedRMSNorm(neox_args.hidden_size)
        else:
            self.norm = torch.nn.LayerNorm(neox_args.hidden_size)

    def forward(self, x):
        for layer in self.layers:
            x = x + layer(x)
        return self.norm(x)
