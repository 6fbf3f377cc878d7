import torch
from torch import nn


def convert_padding_direction(src_tokens, padding_idx, right_to_left: bool = False, left_to_right: bool = False):
    assert right_to_left ^ left_to_right
    pad_mask = src_tokens.eq(padding_idx)
    if left_to_right and not pad_mask[:, 0].any():
        return src_tokens
    if right_to_left and not pad_mask[:, -1].any():
        return src_tokens
    max_len = src_tokens.size(1)
    buffered = torch.arange(max_len, device=src_tokens.device).expand_as(src_tokens)
    num_pads = pad_mask.long().sum(dim=1, keepdim=True)
    index = torch.remainder(buffered - num_pads, max_len) if right_to_left else torch.remainder(buffered + num_pads, max_len)
    return src_tokens.gather(1, index)


class LSTMEncoder(nn.Module):
    def __init__(self, num_tokens=1000, dim=256, padding_idx=1, left_pad=True):
        super().__init__()
        self.padding_idx = padding_idx
        self.left_pad = left_pad
        self.embed = nn.Embedding(num_tokens, dim, padding_idx=padding_idx)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, num_tokens)

    def forward(self, src_tokens):
        if self.left_pad:
            src_tokens = convert_padding_direction(src_tokens, self.padding_idx, left_to_right=True)
        x, _ = self.lstm(self.embed(src_tokens))
        return self.out(x)
