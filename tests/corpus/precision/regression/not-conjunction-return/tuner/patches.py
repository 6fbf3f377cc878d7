class PatchManager:
    def __init__(self, cfg):
        self.cfg = cfg

    def apply_tiled_moe(self, model):
        if not (self.cfg.tiled_mlp and self.cfg.use_moe_kernels):
            return
        import deepspeed

        deepspeed.runtime.sequence_parallel.TiledMLP(model)

    def apply_packing(self, model):
        if not (self.cfg.gradient_checkpointing and self.cfg.sample_packing):
            return
        from flash_attn import flash_attn_varlen_func

        model.attn_fn = flash_attn_varlen_func
