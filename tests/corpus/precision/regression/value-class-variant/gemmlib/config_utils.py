"""Builders that pick each block's class from the model config."""
from typing import Literal

from gemmlib.fused import FusedAttentionOut, FusedFeedForward, FusedNorm
from gemmlib.plain import AttentionOut, FeedForward, RMSNorm

TpGemmBackend = Literal["default", "dist_gemm"]

NORMS = {"rms": RMSNorm, "fused_rms": FusedNorm}


def make_ffn(dim: int, tp_gemm_backend: TpGemmBackend = "default"):
    ffn_cls = FusedFeedForward if tp_gemm_backend == "dist_gemm" else FeedForward
    return ffn_cls(dim)


def make_attention_out(dim: int, fuse_out: bool = True):
    out_cls = FusedAttentionOut if fuse_out else AttentionOut
    return out_cls(dim)


def make_norm(dim: int, kind: str = "rms", fused: bool = False):
    norm_cls = FusedNorm if fused else NORMS[kind]
    return norm_cls(dim)
