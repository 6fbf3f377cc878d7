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
