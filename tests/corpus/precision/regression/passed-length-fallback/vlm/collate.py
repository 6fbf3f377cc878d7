"""A base collator whose padding length falls back to the batch maximum when none is given."""
import torch
import torch.nn.functional as F


class BaseCollator:
    def __init__(self, pad_id):
        self.pad_id = pad_id

    def prepare_batch(self, batch, max_length=None):
        ids = [item["input_ids"] for item in batch]
        if max_length is not None:
            max_len = max_length
        else:
            max_len = max(len(x) for x in ids)
        padded = [F.pad(x, (max_len - len(x), 0), value=self.pad_id) for x in ids]
        return {"input_ids": torch.stack(padded)}


class TrainCollator(BaseCollator):
    def __init__(self, pad_id, max_length):
        super().__init__(pad_id)
        self.max_length = max_length

    def __call__(self, batch):
        return self.prepare_batch(batch, max_length=self.max_length)
