import torch


@torch.no_grad()
def generate(model, idx, max_new_tokens):
    for _ in range(max_new_tokens):
        idx = torch.cat((idx, model(idx)[:, -1:].argmax(-1)), dim=1)
    return idx
