"""A block that runs the repo's NKI kernel in forward."""
import torch

from model.kernels import reference_add, tile_add


class Residual(torch.nn.Module):
    def forward(self, x, y):
        if x.device.type == "cpu":
            # ok: neuron-ready.repo-nki-kernel-call
            return reference_add(x, y)
        # expect: neuron-ready.repo-nki-kernel-call
        first = tile_add(x, y)
        # expect: neuron-ready.repo-nki-kernel-call
        return tile_add[(1,)](
            first,
            y,
        )
