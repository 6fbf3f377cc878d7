import torch


def supports_grouped_gemm() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 9
