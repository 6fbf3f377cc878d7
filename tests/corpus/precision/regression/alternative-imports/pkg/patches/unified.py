def _make_forward():
    from pkg.kernels.rope import fused_rope

    def forward(self, x):
        return fused_rope(x)

    return forward


def patch_unified_attn(cls):
    cls.forward = _make_forward()
