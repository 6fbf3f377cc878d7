import torch

from .wrappers import foreground_indices, host_indices, masked_mean, nonzero_tuple


def subsample_labels(labels, num_samples, background):
    # expect: dynamic-graph.wrapped-data-dependent-op
    positive = nonzero_tuple((labels != -1) & (labels != background))[0]
    # expect: dynamic-graph.wrapped-data-dependent-op
    negative = nonzero_tuple(labels == background)[0]
    keep = torch.randperm(positive.numel(), device=positive.device)[:num_samples]
    return positive[keep], negative


class BoxHead(torch.nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.cls = torch.nn.Linear(dim, classes)
        self.background = classes - 1

    def forward(self, x, labels):
        logits = self.cls(x)
        positive, negative = subsample_labels(labels, 64, self.background)
        # expect: dynamic-graph.wrapped-data-dependent-op
        fg = foreground_indices(labels, self.background)
        # ok: dynamic-graph.wrapped-data-dependent-op
        weights = masked_mean(logits, (labels != self.background).float())
        # ok: dynamic-graph.wrapped-data-dependent-op
        host = host_indices(labels.cpu())
        return logits[fg].logsumexp(-1).mean() + weights + logits[positive].mean(), host


class ImageDataset(torch.utils.data.Dataset):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        labels = self.items[index]
        # ok: dynamic-graph.wrapped-data-dependent-op
        present = nonzero_tuple(labels >= 0)[0]
        return labels, present
