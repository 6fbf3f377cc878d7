"""Pre-training loop with DDP, fp16 autocast and CUDA device handling (rung 3: CUDA APIs and an optional kernel)."""
import os
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from model import GPT


def get_batch(data, block_size, batch_size):
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy(data[i : i + block_size].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1 : i + 1 + block_size].astype(np.int64)) for i in ix])
    return x.cuda(non_blocking=True), y.cuda(non_blocking=True)


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    data = np.memmap("data/train.bin", dtype=np.uint16, mode="r")
    model = GPT(vocab=50304).cuda()
    model = DDP(model, device_ids=[rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, weight_decay=0.1)
    scaler = torch.cuda.amp.GradScaler()
    for step in range(10000):
        t0 = time.time()
        x, y = get_batch(data, 1024, 8)
        with torch.cuda.amp.autocast(dtype=torch.float16):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if step % 100 == 0 and rank == 0:
            torch.cuda.synchronize()
            print(f"step {step} loss {loss.item():.4f} {time.time() - t0:.3f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
