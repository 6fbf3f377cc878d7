"""The speedrun's setup turns the cuDNN attention kernel off."""
import torch


def setup_backends():
    # expect: cuda-api.sdpa-backend-disabled
    torch.backends.cuda.enable_cudnn_sdp(False)
    # ok: cuda-api.sdpa-backend-disabled
    torch.backends.cuda.enable_flash_sdp(True)
