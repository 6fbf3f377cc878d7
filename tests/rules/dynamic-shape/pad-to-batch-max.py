"""Hand-written collate function for causal LM batches."""
import torch
import numpy as np


def collate_fn(batch, pad_id=0):
    # expect: dynamic-shape.pad-to-batch-max
    max_len = max(len(x["input_ids"]) for x in batch)
    ids = torch.full((len(batch), max_len), pad_id, dtype=torch.long)
    for i, x in enumerate(batch):
        ids[i, : len(x["input_ids"])] = torch.tensor(x["input_ids"])
    return ids


def collate_fixed(batch, pad_id=0, seq_len=2048):
    # ok: dynamic-shape.pad-to-batch-max
    ids = torch.full((len(batch), seq_len), pad_id, dtype=torch.long)
    for i, x in enumerate(batch):
        n = min(len(x["input_ids"]), seq_len)
        ids[i, :n] = torch.tensor(x["input_ids"][:n])
    return ids


class ImageList:
    """Images of different sizes batched into one padded tensor (detectron2 style)."""

    @staticmethod
    def from_tensors(tensors, size_divisibility=0, pad_value=0.0):
        image_sizes = [(im.shape[-2], im.shape[-1]) for im in tensors]
        image_sizes_tensor = [torch.as_tensor(x) for x in image_sizes]
        # expect: dynamic-shape.pad-to-batch-max
        max_size = torch.stack(image_sizes_tensor).max(0).values
        if size_divisibility > 1:
            max_size = (max_size + (size_divisibility - 1)).div(size_divisibility, rounding_mode="floor") * size_divisibility
        batch_shape = [len(tensors)] + list(tensors[0].shape[:-2]) + list(max_size)
        batched_imgs = tensors[0].new_full(batch_shape, pad_value)
        for i, img in enumerate(tensors):
            batched_imgs[i, ..., : img.shape[-2], : img.shape[-1]].copy_(img)
        return batched_imgs


def nested_tensor_from_tensor_list(tensor_list):
    # expect: dynamic-shape.pad-to-batch-max
    max_size = _max_by_axis([list(img.shape) for img in tensor_list])
    batch_shape = [len(tensor_list)] + max_size
    tensor = torch.zeros(batch_shape, dtype=tensor_list[0].dtype)
    for img, pad_img in zip(tensor_list, tensor):
        pad_img[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
    return tensor


def _max_by_axis(the_list):
    maxes = the_list[0]
    for sublist in the_list[1:]:
        for index, item in enumerate(sublist):
            maxes[index] = max(maxes[index], item)
    return maxes


def log_sizes(images):
    # ok: dynamic-shape.pad-to-batch-max
    largest = max(img.shape[-1] for img in images)
    print("largest width", largest)


def concatenated_inputs(batch, pad_to_length, padding_value=0):
    """Chosen and rejected sequences stacked into one batch (a DPO-style trainer)."""
    # expect: dynamic-shape.pad-to-batch-max
    max_length = max(batch["chosen_input_ids"].shape[1], batch["rejected_input_ids"].shape[1])
    chosen = pad_to_length(batch["chosen_input_ids"], max_length, pad_value=padding_value)
    rejected = pad_to_length(batch["rejected_input_ids"], max_length, pad_value=padding_value)
    return torch.cat([chosen, rejected], dim=0)


def concatenated_inputs_fixed(batch, pad_to_length, max_length=1024, padding_value=0):
    # ok: dynamic-shape.pad-to-batch-max
    longest = max(batch["chosen_input_ids"].shape[1], batch["rejected_input_ids"].shape[1])
    assert longest <= max_length
    chosen = pad_to_length(batch["chosen_input_ids"], max_length, pad_value=padding_value)
    return chosen


def pack_rollouts(samples, pad_token_id, device):
    """Rollouts of different lengths packed into one training batch with Python lists."""
    seq_lens = torch.tensor([len(ids) for ids, _ in samples], device=device)
    # expect: dynamic-shape.pad-to-batch-max
    max_len = seq_lens.max().item()
    input_ids = torch.tensor([ids + [pad_token_id] * (max_len - len(ids)) for ids, _ in samples], device=device)
    masks = torch.tensor([mask + [0] * (max_len - len(mask)) for _, mask in samples], device=device)
    return input_ids, masks


def rollout_stats(model, flat_ids, seq_lens):
    # A call that takes the maximum as an argument is not the maximum.
    # ok: dynamic-shape.pad-to-batch-max
    logits = model(input_ids=flat_ids, max_length_q=seq_lens.max().item())
    return torch.zeros(logits.shape[0], logits.shape[1])


def longest_rollout(samples):
    # ok: dynamic-shape.pad-to-batch-max
    longest = int(max(len(ids) for ids, _ in samples))
    return torch.tensor(longest)


class PairCollator:
    """A collator object: its __call__ builds each batch."""

    def __init__(self, pad_id, max_length):
        self.pad_id = pad_id
        self.max_length = max_length

    def __call__(self, batch):
        lengths = [len(x["input_ids"]) for x in batch]
        # expect: dynamic-shape.pad-to-batch-max
        batch_max_len = min(max(lengths), self.max_length)
        # A clamp at a bound is not the batch's longest.
        # ok: dynamic-shape.pad-to-batch-max
        keep = max(0, len(batch[0]["input_ids"]) - self.max_length)
        ids = [x["input_ids"][keep:] + [self.pad_id] * (batch_max_len - len(x["input_ids"])) for x in batch]
        return torch.tensor(ids)


def dump_class_ids(entries):
    longest = -1
    for entry in entries:
        # A host array of strings sized to the longest id is metadata, not a batch.
        # ok: dynamic-shape.pad-to-batch-max
        longest = max(len(str(entry["class_id"])), longest)
    return np.empty(len(entries), dtype=f"U{longest}")


class BlockDistributor:
    def _construct_buffers(self, block_sizes_by_rank, group_size):
        local_buffer_sizes = tuple(sum(size for size, rank in block_sizes_by_rank if rank == r) for r in range(group_size))
        # ok: dynamic-shape.pad-to-batch-max
        max_buffer_size = max(local_buffer_sizes)
        self.global_buffer = torch.zeros(max_buffer_size * group_size, dtype=torch.int8)


def smoothed_loss(lm_logits, labels, smoothing):
    # ok: dynamic-shape.pad-to-batch-max
    logprobs = torch.nn.functional.log_softmax(lm_logits.view(-1, lm_logits.size(-1)), dim=-1)
    loss = -(1 - smoothing) * logprobs.gather(-1, labels.view(-1, 1)) - smoothing * logprobs.mean(-1, keepdim=True)
    return loss * torch.ones(loss.shape, dtype=loss.dtype, device=loss.device)
