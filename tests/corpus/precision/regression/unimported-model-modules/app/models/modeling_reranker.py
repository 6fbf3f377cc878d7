"""A copy of a hub model's remote code, with a chat helper; nothing in this repo imports it."""
import torch
from torch import nn
from transformers.utils import is_torch_fx_available

if is_torch_fx_available():
    import torch.fx


class RerankerModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.score = nn.Linear(hidden, 1)

    def forward(self, x):
        keep = self.score(x).squeeze(-1) > 0
        return x[keep]

    @torch.inference_mode()
    def chat(self, tokenizer, query):
        ids = tokenizer(query, return_tensors="pt").input_ids
        return self.forward(ids.float())
