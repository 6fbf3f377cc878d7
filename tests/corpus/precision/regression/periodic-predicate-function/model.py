import torch
from torch import nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.embed = nn.Embedding(num_tokens, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 8, batch_first=True)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        inp, target = x[:, :-1], x[:, 1:]
        logits = self.to_logits(self.layer(self.embed(inp)))
        return F.cross_entropy(logits.transpose(1, 2), target)

    @torch.no_grad()
    def generate(self, prime, length):
        out = prime
        for _ in range(length):
            logits = self.to_logits(self.layer(self.embed(out)))[:, -1]
            sample = torch.multinomial(logits.softmax(dim=-1), 1)
            out = torch.cat((out, sample), dim=-1)
        return out
