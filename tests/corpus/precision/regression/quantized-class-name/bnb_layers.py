from torch import nn

from quant_utils import dequantize_bnb_weight

try:
    import bitsandbytes as bnb

    HAS_BNB = True
except ImportError:
    HAS_BNB = False

if HAS_BNB:

    class LoraLinear4bit(nn.Module):
        def __init__(self, base):
            super().__init__()
            self.base = base

        def merge(self):
            weight = self.base.weight
            return dequantize_bnb_weight(weight, state=weight.quant_state)
