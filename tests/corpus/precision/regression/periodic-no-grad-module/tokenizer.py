import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence


class EntropySegmenter(nn.Module):
    """Splits a sequence where the language model's next-token entropy jumps (a printout aid)."""

    def __init__(self, decoder, threshold=1.5):
        super().__init__()
        self.decoder = decoder
        self.threshold = threshold

    @torch.no_grad()
    def forward(self, seq):
        logits = self.decoder.logits(seq)
        entropy = -(logits.softmax(-1) * logits.log_softmax(-1)).sum(-1)
        boundaries = entropy > self.threshold
        num_tokens = boundaries.sum(dim=-1)
        lengths = [torch.ones(int(n) + 1) for n in num_tokens.tolist()]
        return pad_sequence(lengths, batch_first=True)


class FrozenTeacher(nn.Module):
    """A frozen teacher whose soft targets every training step uses."""

    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder

    @torch.no_grad()
    def forward(self, seq):
        logits = self.decoder.logits(seq)
        top = logits.amax().item()
        return (logits - top).softmax(-1)
