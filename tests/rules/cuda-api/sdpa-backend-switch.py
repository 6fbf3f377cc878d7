"""A training script that pins SDPA to the CUDA flash kernel."""
import torch


def configure_attention(use_flash: bool):
    # expect: cuda-api.sdpa-backend-switch
    torch.backends.cuda.enable_flash_sdp(True)
    # expect: cuda-api.sdpa-backend-switch
    torch.backends.cuda.enable_mem_efficient_sdp(use_flash)
    # ok: cuda-api.sdpa-backend-switch
    torch.backends.cuda.enable_cudnn_sdp(False)
