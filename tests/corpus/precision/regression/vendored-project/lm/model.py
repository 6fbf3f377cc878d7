import torch
from torch import nn


class TinyLM(nn.Module):
    """A recurrent language model: the repo's own training code, with nothing vendored in it."""

    def __init__(self, vocab=32000, hidden=256):
        super().__init__()
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.table = nn.Embedding(vocab, hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, ids):
        states, _ = self.rnn(self.table(ids))
        return self.head(states)


LM = TinyLM
