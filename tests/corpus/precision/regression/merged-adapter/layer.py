"""A circulant adapter: trains through an FFT convolution, merges its delta into the base weight."""
import torch
from torch import nn


def circulant_delta(kernel: torch.Tensor) -> torch.Tensor:
    delta = torch.fft.ifft(torch.fft.fft(kernel)).real
    torch.cuda.synchronize()
    return delta


class CirculantLinear(nn.Module):
    def __init__(self, base: nn.Linear):
        super().__init__()
        self.base_layer = base
        self.kernel = nn.Parameter(torch.zeros(base.in_features))
        self.merged = False
        self.disable_adapters = False

    def merge(self):
        self.base_layer.weight.data += circulant_delta(self.kernel)
        self.merged = True

    def unmerge(self):
        self.base_layer.weight.data -= circulant_delta(self.kernel)
        self.merged = False

    def forward(self, x):
        if self.disable_adapters:
            if self.merged:
                self.unmerge()
            return self.base_layer(x)
        if self.merged:
            return self.base_layer(x)
        out = self.base_layer(x) + torch.fft.irfft(torch.fft.rfft(x) * torch.fft.rfft(self.kernel), n=x.shape[-1])
        torch.cuda.synchronize()
        return out
