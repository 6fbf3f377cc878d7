import torch


class FinetuningCollator:
    def __init__(self, tokenizer, max_seq_len, pad_to_longest: bool = False, trim_padding: bool = False):
        self.tokenizer = tokenizer
        self.max_seq_len = max_seq_len
        self._pad_to_longest = pad_to_longest
        self._trim_padding = trim_padding

    def __call__(self, examples):
        ids = [e["input_ids"][: self.max_seq_len] for e in examples]
        if self._pad_to_longest:
            length = max(len(x) for x in ids)
        else:
            length = self.max_seq_len
        batch = torch.tensor([x + [self.tokenizer.pad_token_id] * (length - len(x)) for x in ids])
        if self._trim_padding:
            keep = max(len(x) for x in ids)
            batch = batch[:, :keep]
        return {"input_ids": batch, "labels": batch.clone()}
