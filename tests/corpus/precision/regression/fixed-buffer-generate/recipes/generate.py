import torch


@torch.no_grad()
def generate(model, idx, max_new_tokens):
    """Grows the sequence by concatenation: every step is a longer input."""
    for _ in range(max_new_tokens):
        logits = model(idx)[:, -1, :]
        next_token = torch.argmax(logits, dim=-1, keepdim=True)
        idx = torch.cat((idx, next_token), dim=1)
    return idx
