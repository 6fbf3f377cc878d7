from .fused import fused_gelu
