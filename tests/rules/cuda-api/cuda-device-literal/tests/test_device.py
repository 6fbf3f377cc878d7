"""Device tests: hard-coded devices in test code are not reported."""
import torch


def test_to_device():
    # ok: cuda-api.cuda-device-literal
    x = torch.ones(2, device="cuda")
    assert x.sum().item() == 2
