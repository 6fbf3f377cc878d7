"""BiLSTM tagger."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Tagger(nn.Module):
    def __init__(self, vocab, dim, n_tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, n_tags)

    def forward(self, tokens, lengths):
        # expect: dynamic-graph.host-transfer-in-forward
        packed = pack_padded_sequence(self.emb(tokens), lengths.cpu(), batch_first=True, enforce_sorted=False)
        hidden, _ = self.lstm(packed)
        hidden, _ = pad_packed_sequence(hidden, batch_first=True)
        logits = self.out(hidden)
        # expect: dynamic-graph.host-transfer-in-forward
        self.last_tags = logits.argmax(-1).tolist()
        return self.permuted(logits, (1,))

    def permuted(self, hidden, axes):
        front = [a for a in range(hidden.dim()) if a not in axes]
        # ok: dynamic-graph.host-transfer-in-forward
        order = torch.argsort(torch.tensor(front + list(axes))).tolist()
        widths = torch.tensor([t.shape[-1] for t in self.last_batch])
        # ok: dynamic-graph.host-transfer-in-forward
        kept = torch.unique(widths).tolist()
        # A factory without a device builds on the CPU, and a rebinding reads the old value first (DALLE2's
        # `times = list(reversed(times.int().tolist()))` after `torch.linspace`).
        steps = torch.linspace(0.0, 1000, steps=10)[:-1]
        # ok: dynamic-graph.host-transfer-in-forward
        steps = list(reversed(steps.int().tolist()))
        placed = torch.tensor(kept, device=hidden.device)
        ramp = torch.linspace(0.0, 1.0, steps=4, device=hidden.device)
        # expect: dynamic-graph.host-transfer-in-forward
        self.ramp = ramp.tolist()
        # expect: dynamic-graph.host-transfer-in-forward
        self.kept = placed.cpu()
        return hidden.permute(order)

    def decode(self, logits):
        # ok: dynamic-graph.host-transfer-in-forward
        return logits.argmax(-1).cpu().numpy()
