"""Attention modules whose xformers path a constructor parameter switches on (fairseq's MultiheadAttention shape)."""
import torch
from torch import nn

try:
    from xformers.components.attention import build_attention
    _xformers_available = True
except ImportError:
    _xformers_available = False


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, xformers_att_config=None):
        super().__init__()
        self.use_xformers = xformers_att_config is not None
        if self.use_xformers and not _xformers_available:
            raise ImportError("Please install xFormers.")
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


class DirectAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        self.proj = nn.Linear(embed_dim, embed_dim)
        if xformers_att_config is not None:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


class PassedAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


class ParsedAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        xformers_att_config = parse_config(xformers_att_config)
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


def parse_config(text):
    return {"name": "scaled_dot_product"} if text is None else {"name": text}


class SwitchedAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


class LocalAttention(SwitchedAttention):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__(embed_dim, xformers_att_config=xformers_att_config)


class FilledAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


def build_filled(embed_dim, xformers_att_config=None):
    if xformers_att_config is None:
        xformers_att_config = "scaled_dot_product"
    return FilledAttention(embed_dim, xformers_att_config=xformers_att_config)


def eval_config(text, kind=dict):
    """Reads a config string; None stays None."""
    if text is None:
        return None
    return kind(name=text) if isinstance(text, str) else text


class NormalizedAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        xformers_att_config = eval_config(xformers_att_config)
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)


def keep_config(text):
    if text is None:
        return {"name": "scaled_dot_product"}
    return {"name": text}


class DefaultedAttention(nn.Module):
    def __init__(self, embed_dim, xformers_att_config=None):
        super().__init__()
        xformers_att_config = keep_config(xformers_att_config)
        self.use_xformers = xformers_att_config is not None
        self.proj = nn.Linear(embed_dim, embed_dim)
        if self.use_xformers:
            self.attention = build_attention(xformers_att_config)

    def forward(self, x):
        return self.proj(x)
