import argparse

import bitsandbytes as bnb
import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="tiny")
args = parser.parse_args()


class Int8Linear(nn.Module):
    def __init__(self, linear):
        super().__init__()
        self.inner = bnb.nn.Linear8bitLt(linear.in_features, linear.out_features, has_fp16_weights=False)

    def forward(self, x):
        out = self.inner(x)
        state = bnb.MatmulLtState()
        return out + bnb.matmul(x, self.inner.weight, state=state)


reference = nn.Linear(16, 16).to("cuda")
quantized = Int8Linear(reference)
inputs = torch.randn(4, 16, device="cuda")
with torch.no_grad():
    error = (reference(inputs) - quantized(inputs)).pow(2).mean()
print(f"{args.model}: mse {error.item():.4f}")
