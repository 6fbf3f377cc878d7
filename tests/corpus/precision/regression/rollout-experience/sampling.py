import torch


@torch.inference_mode()
def sample(model, input_ids, max_new_tokens=64, repetition_penalty=1.0):
    for _ in range(max_new_tokens):
        logits = model(input_ids).logits[:, -1, :]
        if repetition_penalty != 1.0:
            for i in range(input_ids.shape[0]):
                seen = torch.unique(input_ids[i])
                logits[i, seen] = logits[i, seen] / repetition_penalty
        next_token = torch.argmax(logits, dim=-1, keepdim=True)
        input_ids = torch.cat([input_ids, next_token], dim=-1)
        if (next_token == 2).all():
            break
    return input_ids
