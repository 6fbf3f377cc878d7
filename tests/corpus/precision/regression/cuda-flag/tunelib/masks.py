import torch

from tunelib.import_guard import SUPPORTS_FLEX_ATTENTION


def packed_causal_mask(seq_lens):
    if SUPPORTS_FLEX_ATTENTION:
        doc_ids = torch.cat([torch.full((n,), i) for i, n in enumerate(seq_lens)])
        doc_ids = doc_ids.to("cuda")
        return doc_ids[:, None] == doc_ids[None, :]
    total = sum(seq_lens)
    return torch.tril(torch.ones(total, total, dtype=torch.bool))
