"""An experimental block kept from another project; nothing in this repo imports it."""
import logging
import sys

import torch
from torch import nn

if sys.version_info.minor > 8:
    from collections.abc import MutableMapping
elif sys.version_info.minor == 8:
    from typing import MutableMapping
else:
    raise SystemExit("This script supports Python 3.8 or higher")

log = logging.getLogger(__name__)


class CoatBlock(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        scale = x.abs().max().item()
        return self.proj(x / scale)
