def prepare_unet(unet, args, accelerator):
    if args.enable_xformers_memory_efficient_attention:
        # expect: cuda-library.xformers-attention-enabled
        unet.enable_xformers_memory_efficient_attention()
    if args.gradient_checkpointing:
        # ok: cuda-library.xformers-attention-enabled
        unet.enable_gradient_checkpointing()
    return unet
