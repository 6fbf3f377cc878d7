import torch

SUPPORTS_FLEX_ATTENTION = (
    torch.cuda.is_available() and torch.cuda.get_device_capability() >= (7, 5)
)
