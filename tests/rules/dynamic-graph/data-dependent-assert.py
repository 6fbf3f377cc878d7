"""Embedding with input checks."""
import torch
from torch import nn


class TokenEmbedding(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.vocab = vocab
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, ids):
        # expect: dynamic-graph.data-dependent-assert
        assert torch.all(ids >= 0), "negative token id"
        # A removable check: the assert is what the port changes, even where it reads through `.item()`.
        # expect: dynamic-graph.data-dependent-assert
        assert (ids < self.emb.num_embeddings).all().item(), "token id out of range"
        # ok: dynamic-graph.data-dependent-assert
        assert ids.dim() == 2, "expected [batch, seq]"
        return self.emb(ids)


def build_vocab(tokens):
    table = torch.tensor(tokens)
    # ok: dynamic-graph.data-dependent-assert
    assert torch.all(table >= 0)
    return table


class LeftPaddingCheck(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attention_mask=None):
        # An `if` that only raises is an assert written out.
        # expect: dynamic-graph.data-dependent-assert
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if attention_mask is not None and attention_mask[:, 0].sum() != attention_mask.shape[0]:
            raise NotImplementedError("left padding is not supported")
        # A branch that does work on one side stays a data-dependent branch.
        # ok: dynamic-graph.data-dependent-assert
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if x.abs().max() > 1e4:
            x = x.clamp(-1e4, 1e4)
        return self.proj(x)
