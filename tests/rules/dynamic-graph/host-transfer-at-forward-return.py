"""Pipeline-parallel stages over RPC: each stage returns its output to the host for the next worker."""
import threading

import torch
from torch import nn


class EmbeddingStage(nn.Module):
    def __init__(self, ntoken, ninp, device):
        super().__init__()
        self.device = device
        self.encoder = nn.Embedding(ntoken, ninp).to(device)
        self.drop = nn.Dropout(0.1)

    def forward(self, tokens):
        tokens = tokens.to(self.device)
        # expect: dynamic-graph.host-transfer-at-forward-return
        return self.drop(self.encoder(tokens)).cpu()


class HeadStage(nn.Module):
    def __init__(self, dim, classes, device):
        super().__init__()
        self.device = device
        self._lock = threading.Lock()
        self.fc = nn.Linear(dim, classes).to(device)

    def forward(self, x_rref):
        x = x_rref.to_here().to(self.device)
        with self._lock:
            out = self.fc(torch.flatten(x, 1))
        # ok: dynamic-graph.host-transfer-in-forward
        # expect: dynamic-graph.host-transfer-at-forward-return
        return out.cpu()


class Lengths(nn.Module):
    def forward(self, tokens, lengths):
        # ok: dynamic-graph.host-transfer-at-forward-return
        # expect: dynamic-graph.host-transfer-in-forward
        sizes = lengths.cpu()
        # ok: dynamic-graph.host-transfer-at-forward-return
        # expect: dynamic-graph.host-transfer-in-forward
        return tokens[:, : int(sizes.max())], sizes.tolist()

    def decode(self, logits):
        # ok: dynamic-graph.host-transfer-at-forward-return
        return logits.argmax(-1).cpu()
