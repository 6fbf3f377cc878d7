import torch

from kernels.scan import scan_fwd, scan_fwd_reference


def test_scan_matches_reference():
    x = torch.randn(4, 16)
    torch.testing.assert_close(scan_fwd(x), scan_fwd_reference(x))
