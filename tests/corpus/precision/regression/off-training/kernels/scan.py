import torch


def scan_fwd(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1)


def scan_fwd_reference(x: torch.Tensor) -> torch.Tensor:
    # Kept for the tests: the old implementation, which nothing in the library calls.
    torch.cuda.synchronize()
    return torch.cumsum(x.float(), dim=-1).to(x.dtype)
