"""Token routing with index lists."""
import torch
from torch import nn


class Router(nn.Module):
    def __init__(self, dim, n_experts):
        super().__init__()
        self.gate = nn.Linear(dim, n_experts)

    def forward(self, x):
        choice = self.gate(x).argmax(-1)
        # expect: dynamic-graph.data-dependent-shape-op
        idx = torch.nonzero(choice == 0, as_tuple=True)
        # expect: dynamic-graph.data-dependent-shape-op
        experts_used = torch.unique(choice)
        # ok: dynamic-graph.data-dependent-shape-op
        counts = torch.count_nonzero(choice == 0)
        # ok: dynamic-graph.data-dependent-shape-op
        picked = torch.where(choice == 0, x.sum(-1), torch.zeros_like(x.sum(-1)))
        return x[idx], experts_used, counts, picked


def build_label_set(labels):
    # ok: dynamic-graph.data-dependent-shape-op
    return torch.unique(torch.tensor(labels))


class SpanDataset(torch.utils.data.Dataset):
    """Finds answer spans while loading: CPU work in a worker, not a compiled graph."""

    def __init__(self, examples):
        self.examples = examples

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        ids, answer_mask = self.examples[i]
        # ok: dynamic-graph.data-dependent-shape-op
        positions = torch.nonzero(answer_mask, as_tuple=True)[0]
        return ids, positions[:1]
