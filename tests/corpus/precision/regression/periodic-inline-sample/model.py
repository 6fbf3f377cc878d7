import torch
from torch import nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.out = nn.Linear(dim, num_tokens)

    def forward(self, x, return_loss=False):
        inp, labels = (x[:, :-1], x[:, 1:]) if return_loss else (x, None)
        logits = self.out(self.emb(inp))
        if not return_loss:
            return logits
        return F.cross_entropy(logits.transpose(1, 2), labels)

    @torch.no_grad()
    def generate(self, length, prompt):
        out = prompt
        for _ in range(length):
            logits = self.forward(out)[:, -1]
            out = torch.cat((out, logits.argmax(-1, keepdim=True)), dim=-1)
        return out
