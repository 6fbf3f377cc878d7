from normkit.layers import SyncNorm
