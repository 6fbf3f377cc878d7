"""LoRA fine-tuning of a Llama model on fixed-length packed blocks (Trainium2, TorchNeuron)."""
from __future__ import annotations

import argparse
import math
import os
import random
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from transformers import default_data_collator, get_cosine_schedule_with_warmup

from checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint
from config import TrainConfig, load_config
from data import build_datasets
from model import build_model, build_tokenizer, count_parameters


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", type=Path, default=Path("configs/llama3_8b_lora.yaml"))
    parser.add_argument("--device", default="neuron", help='"neuron", "cpu", or "auto" (torch.accelerator)')
    parser.add_argument("--output-dir", type=Path, default=Path("runs/llama-lora"))
    parser.add_argument("--resume-from", default=None, help='a checkpoint folder, or "latest"')
    return parser.parse_args()


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def init_distributed() -> tuple[int, int, int]:
    """Returns (rank, local_rank, world_size); joins the process group when launched by torchrun."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if world_size == 1:
        return 0, 0, 1
    dist.init_process_group(backend="neuron")
    return dist.get_rank(), int(os.environ["LOCAL_RANK"]), world_size


def resolve_device(name: str, local_rank: int) -> torch.device:
    if name == "auto":
        accelerator = torch.accelerator.current_accelerator()
        name = accelerator.type if accelerator is not None else "cpu"
    if name == "cpu":
        return torch.device("cpu")
    torch.accelerator.set_device_index(local_rank)
    return torch.device(name, local_rank)


def batch_stream(loader: DataLoader, sampler: DistributedSampler, start_batch: int):
    """Yields batches forever, skipping the first start_batch ones so a resumed run sees the same data."""
    epoch, skip = divmod(start_batch, len(loader))
    while True:
        sampler.set_epoch(epoch)
        for index, batch in enumerate(loader):
            if index >= skip:
                yield batch
        skip = 0
        epoch += 1


@torch.no_grad()
def evaluate(model: torch.nn.Module, loader: DataLoader, device: torch.device) -> float:
    model.eval()
    total = torch.zeros((), device=device)
    for batch in loader:
        batch = {key: value.to(device) for key, value in batch.items()}
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
            total += model(**batch).loss.float()
    if dist.is_initialized():
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        total /= dist.get_world_size()
    model.train()
    return math.exp(total.item() / len(loader))


def train(cfg: TrainConfig, args: argparse.Namespace) -> None:
    set_seed(cfg.seed)
    rank, local_rank, world_size = init_distributed()
    device = resolve_device(args.device, local_rank)

    tokenizer = build_tokenizer(cfg.model)
    train_set, eval_set = build_datasets(cfg.data, tokenizer, cfg.seed)
    sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank, seed=cfg.seed, drop_last=True)
    loader = DataLoader(train_set, batch_size=cfg.micro_batch_size, sampler=sampler, drop_last=True,
                        collate_fn=default_data_collator, num_workers=2)
    eval_sampler = DistributedSampler(eval_set, num_replicas=world_size, rank=rank, shuffle=False, drop_last=True)
    eval_loader = DataLoader(eval_set, batch_size=cfg.micro_batch_size, sampler=eval_sampler, drop_last=True,
                             collate_fn=default_data_collator)

    peft_model = build_model(cfg.model, cfg.lora).to(device)
    trainable, total = count_parameters(peft_model)
    params = [p for p in peft_model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay, betas=(0.9, 0.95))
    scheduler = get_cosine_schedule_with_warmup(optimizer, cfg.warmup_steps, cfg.max_steps)

    step = 0
    resume = latest_checkpoint(args.output_dir) if args.resume_from == "latest" else args.resume_from
    if resume is not None:
        step = load_checkpoint(Path(resume), peft_model, optimizer, scheduler)

    model: torch.nn.Module = DDP(peft_model) if world_size > 1 else peft_model
    if cfg.compile:
        model = torch.compile(model, backend="neuron" if device.type == "neuron" else "inductor")
    if rank == 0:
        print(f"trainable {trainable:,} / {total:,} params, {len(train_set):,} blocks, starting at step {step}")

    batches = batch_stream(loader, sampler, start_batch=step * cfg.grad_accum)
    running = torch.zeros((), device=device)
    model.train()
    while step < cfg.max_steps:
        for _ in range(cfg.grad_accum):
            batch = {key: value.to(device) for key, value in next(batches).items()}
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
                loss = model(**batch).loss / cfg.grad_accum
            loss.backward()
            running += loss.detach()
        torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1

        if step % cfg.log_every == 0:
            if world_size > 1:
                dist.all_reduce(running, op=dist.ReduceOp.SUM)
                running /= world_size
            if rank == 0:
                print(f"step {step} loss {running.item() / cfg.log_every:.4f} lr {scheduler.get_last_lr()[0]:.2e}")
            running.zero_()
        if step % cfg.eval_every == 0:
            perplexity = evaluate(model, eval_loader, device)
            if rank == 0:
                print(f"step {step} eval perplexity {perplexity:.3f}")
        if step % cfg.save_every == 0 or step == cfg.max_steps:
            if rank == 0:
                save_checkpoint(args.output_dir, step, peft_model, optimizer, scheduler)
            if world_size > 1:
                dist.barrier()

    if world_size > 1:
        dist.destroy_process_group()


def main() -> None:
    args = parse_args()
    train(load_config(args.config), args)


if __name__ == "__main__":
    main()
