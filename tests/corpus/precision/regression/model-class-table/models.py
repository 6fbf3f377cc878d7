"""Two model families a trainer picks by the config's class name (nanotron's CONFIG_TO_MODEL_CLASS shape)."""
import torch
from torch import nn


class LlamaForTraining(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.vocab_size, config.hidden)
        self.head = nn.Linear(config.hidden, config.vocab_size)

    def forward(self, input_ids, labels):
        hidden = self.embed(input_ids)
        keep = labels != -100
        logits = self.head(hidden)[keep]
        return nn.functional.cross_entropy(logits, labels[keep])


class QwenForTraining(LlamaForTraining):
    def forward(self, input_ids, labels):
        hidden = self.embed(input_ids)
        weight = torch.ones(self.head.out_features, device="cuda")
        return nn.functional.cross_entropy(self.head(hidden).flatten(0, 1), labels.flatten(), weight=weight)


class Reranker(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.score = nn.Linear(config.hidden, 1)

    def forward(self, hidden):
        bias = torch.zeros(1, device="cuda")
        return self.score(hidden).squeeze(-1) + bias
