from .sink_attn_v2 import sink_attn_func
