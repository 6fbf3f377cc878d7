"""Speech batches padded in the collate function."""
import torch
from torch.nn.utils.rnn import pad_sequence


def collate_speech(batch):
    feats = [b["features"] for b in batch]
    labels = [b["labels"] for b in batch]
    # expect: dynamic-shape.pad-sequence
    feats = pad_sequence(feats, batch_first=True)
    # expect: dynamic-shape.pad-sequence
    labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=-100)
    return feats, labels


def collate_fixed(batch, max_frames=3000):
    # ok: dynamic-shape.pad-sequence
    return torch.stack([torch.nn.functional.pad(b["features"], (0, 0, 0, max_frames - len(b["features"]))) for b in batch])
