"""GPU smoke test: CUDA use in test code is not reported."""
import pytest
import torch

from model import TinyModel


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_forward_shape():
    # ok: cuda-api.cuda-method
    model = TinyModel().cuda().eval()
    # ok: cuda-api.cuda-method
    ids = torch.randint(3, 512, (4, 37)).cuda()
    assert model(ids).shape == (4, 37, 512)
