from .sink import sink_attn_func


def apply(model):
    model.attn_fn = sink_attn_func
