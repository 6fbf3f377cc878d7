"""Grouped-query attention and length-based expansion."""
import torch
from torch import nn


class GQA(nn.Module):
    def __init__(self, n_heads, n_kv_heads):
        super().__init__()
        self.n_rep = n_heads // n_kv_heads

    def forward(self, q, k, v, seq_lens, durations):
        # ok: dynamic-graph.repeat-interleave-tensor
        k = k.repeat_interleave(self.n_rep, dim=1)
        # ok: dynamic-graph.repeat-interleave-tensor
        v = torch.repeat_interleave(v, 2, dim=1)
        # expect: dynamic-graph.repeat-interleave-tensor
        batch_index = torch.repeat_interleave(torch.arange(q.shape[0]), seq_lens)
        # todo-expect: dynamic-graph.repeat-interleave-tensor  (a bare tensor name as repeats is taken for an int)
        frames = torch.repeat_interleave(q, durations, dim=1)
        return frames, k, v, batch_index



class ExpertMLP(nn.Module):
    def __init__(self, num_experts, num_tokens_padded):
        super().__init__()
        self.num_experts, self.num_tokens_padded = num_experts, num_tokens_padded

    def forward(self, weights, expert_ids):
        counts = torch.bincount(expert_ids, minlength=self.num_experts)
        # The length is given (tokens padded to a fixed bound): no host read, a static shape.
        # ok: dynamic-graph.repeat-interleave-tensor
        padded = weights.repeat_interleave(counts.long(), dim=0, output_size=self.num_tokens_padded)
        # expect: dynamic-graph.repeat-interleave-tensor
        exact = weights.repeat_interleave(counts.long(), dim=0)
        return padded, exact



class BlockScaledLinear(nn.Module):
    def __init__(self, weight, weight_scale, block_size=(128, 128)):
        super().__init__()
        self.weight, self.weight_scale, self.block_size = weight, weight_scale, list(block_size)

    def forward(self, x, counts):
        # An entry of a size setting (block_size = [128, 128]) is a Python int: a static shape.
        # ok: dynamic-graph.repeat-interleave-tensor
        rows = self.weight_scale.repeat_interleave(self.block_size[0], 0)
        # Per-row counts read from a tensor still size the output by the data.
        # expect: dynamic-graph.repeat-interleave-tensor
        ragged = x.repeat_interleave(counts[0], 0)
        return x @ (self.weight * rows).t(), ragged



def repeat_kv(keys: torch.Tensor, values: torch.Tensor, repeats: int, dim: int):
    # A parameter annotated `int` is a Python int (grouped-query attention's head ratio).
    # ok: dynamic-graph.repeat-interleave-tensor
    keys = torch.repeat_interleave(keys, repeats=repeats, dim=dim)
    # ok: dynamic-graph.repeat-interleave-tensor
    values = torch.repeat_interleave(values, repeats=repeats, dim=dim)
    return keys, values


def expand_by_counts(tokens: torch.Tensor, repeats: torch.Tensor):
    # expect: dynamic-graph.repeat-interleave-tensor
    return torch.repeat_interleave(tokens, repeats=repeats, dim=0)


class PackedAttention(nn.Module):
    def __init__(self, n_heads, n_kv_heads):
        super().__init__()
        self.repeats = n_heads // n_kv_heads

    def forward(self, q, k, v, counts):
        k, v = repeat_kv(k, v, self.repeats, dim=1)
        q = expand_by_counts(q, counts)
        return torch.softmax(q @ k.transpose(-1, -2), -1) @ v


class Upsample(nn.Module):
    def __init__(self, in_channels, out_channels, factor=4):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels * factor, 3, padding=1)
        # Integer arithmetic of the constructor's arguments: a Python int, computed once.
        self.repeats = factor * out_channels // in_channels
        self.token_repeats = None

    def set_counts(self, counts):
        self.token_repeats = counts

    def forward(self, x, tokens):
        # ok: dynamic-graph.repeat-interleave-tensor
        shortcut = x.repeat_interleave(repeats=self.repeats, dim=1)
        # A per-token count the model is handed at run time still sizes the output by the data.
        # expect: dynamic-graph.repeat-interleave-tensor
        expanded = tokens.repeat_interleave(self.token_repeats, dim=0)
        return self.conv(x) + shortcut, expanded
