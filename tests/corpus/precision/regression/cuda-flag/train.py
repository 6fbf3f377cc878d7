import torch

from tunelib.masks import packed_causal_mask


def main(model, loader):
    optimizer = torch.optim.AdamW(model.parameters())
    for tokens, seq_lens in loader:
        mask = packed_causal_mask(seq_lens)
        loss = model(tokens, mask=mask).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
