"""Detection data loader with aspect-ratio grouping."""
import torch.utils.data as torchdata

from .common import AspectRatioGroupedDataset
from .samplers import GroupedBatchSampler


def build_batch_data_loader(dataset, sampler, batch_size, aspect_ratio_grouping=True, num_workers=0):
    data_loader = torchdata.DataLoader(dataset, sampler=sampler, num_workers=num_workers, collate_fn=lambda b: b)
    if aspect_ratio_grouping:
        # expect: dynamic-shape.grouped-batch-sampler
        return AspectRatioGroupedDataset(data_loader, batch_size)
    # ok: dynamic-shape.grouped-batch-sampler
    batch_sampler = torchdata.BatchSampler(sampler, batch_size, drop_last=True)
    return torchdata.DataLoader(dataset, batch_sampler=batch_sampler)


def build_grouped(dataset, sampler, group_ids, batch_size):
    # expect: dynamic-shape.grouped-batch-sampler
    batch_sampler = GroupedBatchSampler(sampler, group_ids, batch_size)
    return torchdata.DataLoader(dataset, batch_sampler=batch_sampler)
