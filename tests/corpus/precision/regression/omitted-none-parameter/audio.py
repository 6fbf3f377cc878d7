from typing import Optional

import torch
from torch import nn


class AudioBackbone(nn.Module):
    def __init__(self, dim=256, classes=527):
        super().__init__()
        self.patch = nn.Conv2d(1, dim, 16, 16)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 8, batch_first=True), 4)
        self.predictor = nn.Linear(dim, classes)

    def downsample_mask(self, features, padding_mask):
        extra = padding_mask.size(1) % features.size(1)
        if extra > 0:
            padding_mask = padding_mask[:, :-extra]
        return padding_mask.view(padding_mask.size(0), features.size(1), -1).all(-1)

    def extract_features(self, fbank: torch.Tensor, padding_mask: Optional[torch.Tensor] = None):
        features = self.patch(fbank.unsqueeze(1)).flatten(2).transpose(1, 2)
        if padding_mask is not None:
            padding_mask = self.downsample_mask(features, padding_mask)
        x = self.encoder(features, src_key_padding_mask=padding_mask)
        logits = self.predictor(x)
        if padding_mask is not None and padding_mask.any():
            logits[padding_mask] = 0
            logits = logits.sum(dim=1) / (~padding_mask).sum(dim=1).unsqueeze(-1)
        else:
            logits = logits.mean(dim=1)
        return logits, padding_mask

    def pool(self, x, lengths=None):
        if lengths is not None and (lengths < x.size(1)).any():
            x = x[:, : int(lengths.max())]
        return x.mean(dim=1)


class AudioClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = AudioBackbone()

    def forward(self, fbank, lengths):
        logits, _ = self.backbone.extract_features(fbank)
        return logits, self.backbone.pool(self.backbone.patch(fbank.unsqueeze(1)).flatten(2).transpose(1, 2), lengths)
