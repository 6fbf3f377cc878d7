import torch


def scan_fwd(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1)


def scan_fwd_reference(x: torch.Tensor) -> torch.Tensor:
    # Kept for the tests: the old implementation, which nothing in the library calls.
    torch.cuda.synchronize()
    return torch.cumsum(x.float(), dim=-1).to(x.dtype)


def test_scan_against_loop():
    # A check kept beside the kernel; no run calls it.
    x = torch.randn(2, 8, device="cuda")
    expected = torch.stack([x[:, : i + 1].sum(-1) for i in range(8)], dim=-1)
    torch.testing.assert_close(scan_fwd(x), expected)
