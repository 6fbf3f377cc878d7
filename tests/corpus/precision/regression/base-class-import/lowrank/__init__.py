from .adamw import LowRankAdamW
from .adamw8bit import LowRankAdamW8bit
from .fused import FusedLowRankAdam
