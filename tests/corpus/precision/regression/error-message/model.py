import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, inputs, targets):
        logits = self.head(self.embed(inputs))
        if logits.dim() != 3:
            raise ValueError(f"expected (batch, time, vocab) logits, got {logits.shape} on {torch.cuda.current_device()}")
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten())
