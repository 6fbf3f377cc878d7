"""Masked-LM head and loss."""
import torch
import torch.nn.functional as F
from torch import nn


class MLMHead(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.proj = nn.Linear(dim, vocab)

    def forward(self, hidden, labels):
        masked = labels != -100
        # expect: dynamic-graph.boolean-mask-index
        logits = self.proj(hidden[masked])
        # expect: dynamic-graph.boolean-mask-index
        return F.cross_entropy(logits, labels[labels != -100])


class Head(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.proj = nn.Linear(dim, vocab)

    def forward(self, hidden, positions):
        # ok: dynamic-graph.boolean-mask-index
        return self.proj(hidden[:, positions])


def filter_examples(examples, lengths):
    keep = lengths > 8
    # ok: dynamic-graph.boolean-mask-index
    return examples[keep]


class MaskedLossWeights(torch.nn.Module):
    def forward(self, logits, labels):
        ignore = labels == -100
        # ok: dynamic-graph.boolean-mask-index
        labels[ignore] = 0
        # ok: dynamic-graph.boolean-mask-index
        logits[labels < 0] += 0.0
        # expect: dynamic-graph.boolean-mask-index
        kept = logits[ignore]
        return kept


class TokenAdapter(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, result, offsets):
        positions = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
        mask = positions >= (x.shape[1] - offsets).unsqueeze(1)
        mask_flat = mask.view(-1)
        x_flat = x.view(-1, x.shape[-1])
        res_flat = result.view(-1, result.shape[-1])
        # expect: dynamic-graph.boolean-mask-index
        res_flat[mask_flat] += self.proj(x_flat[mask_flat])
        return result


class BertEncoder(torch.nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, hidden_states, subset_mask=None, token_idx=None, masks=None):
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        if subset_mask is not None:
            # A parameter named as a mask indexes as a boolean mask: only the kept tokens remain.
            # expect: dynamic-graph.boolean-mask-index
            hidden_states = hidden_states[subset_mask]
        if token_idx is not None:
            # ok: dynamic-graph.boolean-mask-index
            hidden_states = hidden_states[token_idx]
        if masks is not None:
            # ok: dynamic-graph.boolean-mask-index
            hidden_states = hidden_states[masks]
        # ok: dynamic-graph.boolean-mask-index
        hidden_states[subset_mask] = 0.0
        return hidden_states


class CompletionLengths(torch.nn.Module):
    def forward(self, completion_ids, eos_token_id):
        is_eos = completion_ids == eos_token_id
        eos_idx = torch.full((is_eos.size(0),), is_eos.size(1) - 1, device=completion_ids.device)
        # A reduction along a dimension is a mask per row: reading through it keeps only those rows.
        # expect: dynamic-graph.boolean-mask-index
        eos_idx[is_eos.any(dim=1)] = is_eos.int().argmax(dim=1)[is_eos.any(dim=1)]
        has_eos = torch.any(is_eos, dim=1)
        # expect: dynamic-graph.boolean-mask-index
        first = is_eos.int().argmax(dim=1)[has_eos]
        # A full reduction is one truth value, not a mask.
        any_eos = is_eos.any()
        # ok: dynamic-graph.boolean-mask-index
        return eos_idx[any_eos], first


class SpanFilter(torch.nn.Module):
    """Host-side bookkeeping inside a forward: numpy and pandas values filtered by a mask involve no device."""

    def forward(self, hidden, spans):
        import numpy as np
        import pandas as pd

        starts = np.asarray([s[0] for s in spans])
        # ok: dynamic-graph.boolean-mask-index
        starts = starts[starts < hidden.shape[1]]
        frame = pd.DataFrame({"start": [s[0] for s in spans], "end": [s[1] for s in spans]})
        # ok: dynamic-graph.boolean-mask-index
        frame = frame[frame["end"] > frame["start"]]
        # expect: dynamic-graph.boolean-mask-index
        return hidden[hidden.abs() > 1e-3], len(frame)
