import torch

from adapters.config import AdapterType


class PromptModel(torch.nn.Module):
    def __init__(self, config, base):
        super().__init__()
        self.config = config
        self.base = base
        self.prompt = torch.nn.Parameter(torch.zeros(config.num_tokens, 16))

    def forward(self, x, labels):
        if self.config.adapter_type is AdapterType.PROMPT:
            keep = labels != -100
            x = x[keep]
        return self.base(x)
