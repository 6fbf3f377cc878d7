import torch
import torch_xla.core.xla_model as xm


@torch.no_grad()
def generate(model, idx, max_returned_tokens, temperature=1.0):
    """Decode into a buffer of the final size, one position a step, so every step has one shape."""
    T = idx.size(0)
    buffer = torch.empty(max_returned_tokens, dtype=idx.dtype, device=idx.device)
    buffer[:T] = idx
    input_pos = torch.tensor([0], device=idx.device)
    xm.mark_step()
    for _ in range(max_returned_tokens - 1):
        x = buffer.index_select(0, input_pos).view(1, -1)
        logits = model(x, input_pos)[0, -1] / temperature
        next_token = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1).to(buffer.dtype)
        input_pos = input_pos + 1
        xm.mark_step()
        buffer = buffer.index_copy(0, input_pos, next_token)
    return buffer
