import torch
from flash_attn import bert_padding


def unpad(hidden, mask):
    return bert_padding.unpad_input(hidden, mask)
