from functools import partial

import torch
from torch.utils.data import DataLoader

from ssl.collate import collate_and_mask
from ssl.masking import BlockMasker
from ssl.schedules import warmup_steps


def do_train(model, optimizer, dataset, boundaries):
    masker = BlockMasker((14, 14))
    collate_fn = partial(collate_and_mask, mask_ratio=(0.1, 0.5), masker=masker)
    loader = DataLoader(dataset, batch_size=32, collate_fn=collate_fn, drop_last=True)
    for step, batch in enumerate(loader):
        stage = warmup_steps(boundaries, step)
        loss = model(batch["images"].cuda(), batch["masks"].cuda(), stage)
        if loss.isnan().any():
            continue
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    net = torch.nn.Linear(8, 8)
    do_train(net, torch.optim.AdamW(net.parameters()), [], [100, 1000])
