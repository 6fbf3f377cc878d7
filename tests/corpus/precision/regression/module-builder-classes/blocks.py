"""Model pieces built by the code that owns them: a block takes the class it builds (nanotron's PipelineBlock shape)."""
import torch
from torch import nn


class PipelineBlock(nn.Module):
    def __init__(self, module_builder, module_kwargs):
        super().__init__()
        self.module_builder = module_builder
        self.module_kwargs = module_kwargs

    def build(self):
        self.pp_block = self.module_builder(**self.module_kwargs)

    def forward(self, **kwargs):
        return self.pp_block(**kwargs)


class DecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, hidden_states):
        keep = hidden_states.abs().sum(-1) > 0
        return self.proj(hidden_states[keep])


class Embedding(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.table = nn.Embedding(vocab, hidden)

    def forward(self, input_ids):
        return self.table(input_ids).to("cuda")


class UnusedLayer(nn.Module):
    def forward(self, x):
        return x.to("cuda")


class Mlp(nn.Module):
    def __init__(self, hidden, act_layer=nn.GELU):
        super().__init__()
        self.fc = nn.Linear(hidden, hidden)
        self.act = act_layer()

    def forward(self, x):
        scale = torch.ones(1, device="cuda")
        return self.act(self.fc(x)) * scale


class Block(nn.Module):
    def __init__(self, hidden, mlp_layer=Mlp):
        super().__init__()
        self.mlp = mlp_layer(hidden)

    def forward(self, x):
        return x + self.mlp(x)


class Tower(nn.Module):
    def __init__(self, hidden, depth, block_fn=Block):
        super().__init__()
        self.blocks = nn.Sequential(*[block_fn(hidden) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(x)
