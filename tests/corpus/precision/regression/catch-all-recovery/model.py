import torch
from torch import nn

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None


class VisionLanguageModel(nn.Module):
    def __init__(self, dim=64, image_token=7):
        super().__init__()
        self.embed = nn.Embedding(1000, dim)
        self.vision = nn.Linear(dim, dim)
        self.image_token = image_token

    def forward(self, input_ids, pixels):
        embeds = self.embed(input_ids)
        vision = self.vision(pixels)
        b, n, c = embeds.shape
        embeds = embeds.reshape(b * n, c)
        selected = input_ids.reshape(b * n) == self.image_token
        try:
            embeds[selected] = embeds[selected] * 0.0 + vision.reshape(-1, c)
        except Exception as e:
            print(f"warning: {e}, embeds[selected].shape={embeds[selected].shape}")
            count = selected.sum()
            embeds[selected] = embeds[selected] * 0.0 + vision.reshape(-1, c)[:count]
        return embeds.reshape(b, n, c)


class Attention(nn.Module):
    def forward(self, q, k, v):
        try:
            out = flash_attn_func(q, k, v)
        except Exception:
            out = torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v
            out = out[out.sum(-1) > 0]
        return out
