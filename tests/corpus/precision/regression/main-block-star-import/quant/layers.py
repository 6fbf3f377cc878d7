import torch
from torch import nn

from .functions import *


class QLinear(nn.Linear):
    def forward(self, x):
        return nn.functional.linear(block_quant(x), self.weight, self.bias)
