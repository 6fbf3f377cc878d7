"""LoRA layers whose merge also handles a 4-bit quantized base weight."""
import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, linear: nn.Linear, r: int = 8, dtype: str = "float16"):
        super().__init__()
        self.linear = linear
        self.lora_A = nn.Parameter(torch.zeros(r, linear.in_features))
        self.lora_B = nn.Parameter(torch.zeros(linear.out_features, r))
        self.dtype = dtype

    def forward(self, x):
        return self.linear(x) + (x @ self.lora_A.T) @ self.lora_B.T

    def merge(self):
        pretrained_dtype = self.linear.weight.data.dtype
        delta = self.lora_B @ self.lora_A
        if pretrained_dtype == torch.uint8:
            import bitsandbytes as bnb

            weight = self.linear.weight
            merged = bnb.functional.dequantize_4bit(weight.data, weight.quant_state) + delta
            self.linear.weight = bnb.nn.Params4bit(merged, requires_grad=False)
            self.linear.weight.cuda(weight.device)
        else:
            self.linear.weight.data += delta
        if delta.dtype == torch.float16:
            delta = delta.cuda()
        return delta


def to_pixels(image: torch.Tensor) -> torch.Tensor:
    if image.dtype == torch.uint8:
        image = image.cuda().float() / 255
    return image
