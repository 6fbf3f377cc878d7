import torch


@torch.no_grad()
def generate(model, idx, max_returned_tokens):
    # Allocated once at its final size, filled one position a step: the decode step keeps one shape.
    buffer = torch.empty(max_returned_tokens, dtype=idx.dtype, device=idx.device)
    buffer[: idx.size(0)] = idx
    input_pos = torch.tensor([0], device=idx.device)
    for _ in range(max_returned_tokens - 1):
        logits = model(buffer.index_select(0, input_pos).view(1, -1), input_pos)
        input_pos = input_pos + 1
        buffer = buffer.index_copy(0, input_pos, logits[0, -1].argmax(-1, keepdim=True))
    return buffer
