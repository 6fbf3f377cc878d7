import torch

from neox.fused_bias_gelu import bias_gelu
from neox.fused_rope import fused_apply_rotary_pos_emb


class ParallelSelfAttention(torch.nn.Module):
    def __init__(self, neox_args):
        super().__init__()
        self.rope_fusion = neox_args.rope_fusion
        self.qkv = torch.nn.Linear(neox_args.hidden_size, 3 * neox_args.hidden_size)

    def forward(self, x, cos, sin):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.rope_fusion:
            q = fused_apply_rotary_pos_emb(q, cos, sin)
        else:
            q = q * cos + q.roll(1, -1) * sin
        return q + k + v


class ParallelMLP(torch.nn.Module):
    def __init__(self, neox_args):
        super().__init__()
        self.bias_gelu_fusion = neox_args.bias_gelu_fusion
        self.dense = torch.nn.Linear(neox_args.hidden_size, neox_args.hidden_size)
        self.bias = torch.nn.Parameter(torch.zeros(neox_args.hidden_size))

    def forward(self, x):
        if self.bias_gelu_fusion:
            return bias_gelu(self.dense(x), self.bias)
        return torch.nn.functional.gelu(self.dense(x) + self.bias)


class TransformerLayer(torch.nn.Module):
    def __init__(self, neox_args, layer_number=0):
        super().__init__()
        self.attention = ParallelSelfAttention(neox_args)
        self.num_experts = (
            neox_args.moe_num_experts if layer_number % neox_args.moe_expert_interval == 0 else 1
        )
        if self.num_experts > 1:
            from neox.moe import DroplessMoE

            self.mlp = DroplessMoE(neox_args)
        else:
            self.mlp = ParallelMLP(neox_args)

    def forward(self, x, cos, sin):
        return self.mlp(self.attention(x, cos, sin))
