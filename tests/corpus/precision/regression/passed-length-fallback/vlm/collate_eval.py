"""The same fallback where the run builds the collator without a length: the batch maximum decides."""
import torch
import torch.nn.functional as F


class PaddingCollator:
    def __init__(self, pad_id, max_length=None):
        self.pad_id = pad_id
        self.max_length = max_length

    def pad_batch(self, batch, max_length=None):
        ids = [item["input_ids"] for item in batch]
        if max_length is not None:
            max_len = max_length
        else:
            max_len = max(len(x) for x in ids)
        padded = [F.pad(x, (max_len - len(x), 0), value=self.pad_id) for x in ids]
        return {"input_ids": torch.stack(padded)}

    def __call__(self, batch):
        return self.pad_batch(batch, max_length=self.max_length)
