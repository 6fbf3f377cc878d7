import torch

from tuner.cli.utils.diffuse import diffuse_reply


@torch.inference_mode()
def chat(model, tokenizer, prompt):
    ids = tokenizer(prompt, return_tensors="pt").input_ids
    return tokenizer.decode(diffuse_reply(model, ids)[0])
