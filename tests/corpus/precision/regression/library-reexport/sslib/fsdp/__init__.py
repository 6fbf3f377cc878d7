"""The package's sharding helpers, re-exporting what it uses from torch."""
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

try:
    from apex.normalization import FusedLayerNorm
except ImportError:
    FusedLayerNorm = None


def wrap(module):
    return FSDP(module)


ShardedGradScaler = ShardedGradScaler
