import torch


@torch.no_grad()
def generate(model, input_ids, steps=8):
    for _ in range(steps):
        logits = model(input_ids=input_ids).logits
        input_ids = logits.argmax(-1)
    return input_ids
