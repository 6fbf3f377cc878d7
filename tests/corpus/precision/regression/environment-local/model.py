"""A decoder whose forward can dump logits for a numerical test, and print stats when asked."""
import os

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, dim: int, vocab: int):
        super().__init__()
        self.body = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.lm_head(torch.relu(self.body(x)))
        # Off (no overhead) unless the variable is set by the numerical test script.
        dump_dir = os.environ.get("DECODER_LOGIT_DUMP")
        if dump_dir is not None:
            self._dump(dump_dir, logits)
        stats = os.getenv("DECODER_STATS", "0")
        if stats == "1":
            self._stats(logits)
        return logits

    def _dump(self, dump_dir: str, logits: torch.Tensor) -> None:
        torch.save(logits.detach().cpu(), os.path.join(dump_dir, "logits.pt"))

    def _stats(self, logits: torch.Tensor) -> None:
        print(logits.float().std().cpu())
