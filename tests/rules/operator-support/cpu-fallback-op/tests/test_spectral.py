import torch


def test_eigh_matches_reference():
    a = torch.randn(4, 4)
    cov = a @ a.T
    # ok: operator-support.cpu-fallback-op   (test code is never reported)
    evals, _ = torch.linalg.eigh(cov)
    assert evals.shape == (4,)
