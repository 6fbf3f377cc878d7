# A state-space layer: the recurrent step runs only while decoding (`inference_params` is given).
from typing import Optional

import torch


class TinySSM(torch.nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, inference_params: Optional[dict] = None) -> torch.Tensor:
        if inference_params is not None:
            return self.step(x, inference_params)
        return torch.cumsum(self.proj(x), dim=-1)

    def step(self, x: torch.Tensor, inference_params: dict) -> torch.Tensor:
        with torch.cuda.device(x.device.index):
            state = inference_params["state"] + self.proj(x)
        inference_params["state"] = state
        return state
