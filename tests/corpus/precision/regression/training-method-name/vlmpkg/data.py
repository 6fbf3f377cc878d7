import torch
from torch.nn.utils.rnn import pad_sequence


class PaddedCollator:
    def __init__(self, pad_token_id):
        self.pad_token_id = pad_token_id

    def __call__(self, instances):
        input_ids = [item["input_ids"] for item in instances]
        labels = [item["labels"] for item in instances]
        input_ids = pad_sequence(input_ids, batch_first=True, padding_value=self.pad_token_id)
        labels = pad_sequence(labels, batch_first=True, padding_value=-100)
        return {"input_ids": input_ids, "labels": labels}
