"""Fine-tunes the review classifier: DDP over NCCL, fp16 autocast, torch.compile."""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm
from transformers import get_linear_schedule_with_warmup

from reviewclf.data import build_loaders
from reviewclf.evaluate import evaluate
from reviewclf.model import ATTN_IMPLEMENTATION, DEFAULT_MODEL, build_model, build_tokenizer
from reviewclf.timing import Throughput


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=DEFAULT_MODEL)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--warmup-ratio", type=float, default=0.06)
    parser.add_argument("--max-length", type=int, default=512)
    parser.add_argument("--eval-size", type=int, default=5000)
    parser.add_argument("--log-every", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--output-dir", type=Path, default=Path("outputs/review-stars"))
    parser.add_argument("--no-compile", action="store_true")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    distributed = "WORLD_SIZE" in os.environ
    if distributed:
        dist.init_process_group(backend="nccl")
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    rank = dist.get_rank() if distributed else 0
    world_size = dist.get_world_size() if distributed else 1

    tokenizer = build_tokenizer(args.model)
    train_loader, eval_loader, sampler = build_loaders(tokenizer, args, rank, world_size)
    model = build_model(args.model).cuda()
    train_model = DDP(model, device_ids=[torch.cuda.current_device()]) if distributed else model
    if not args.no_compile:
        train_model = torch.compile(train_model, mode="max-autotune")

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    total_steps = args.epochs * len(train_loader)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(args.warmup_ratio * total_steps), total_steps)
    scaler = torch.cuda.amp.GradScaler()
    throughput = Throughput()
    progress = tqdm(total=total_steps, disable=rank != 0, desc=f"train ({ATTN_IMPLEMENTATION})")

    step = 0
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for batch in train_loader:
            batch = {key: value.to(args.device, non_blocking=True) for key, value in batch.items()}
            with torch.cuda.amp.autocast(dtype=torch.float16):
                loss = train_model(**batch).loss
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            throughput.add(batch["input_ids"].shape[0] * world_size)
            step += 1
            progress.update(1)
            progress.set_postfix(loss=f"{loss.item():.4f}")
            if step % args.log_every == 0:
                progress.write(f"step {step} grad_norm {grad_norm.item():.3f} lr {scheduler.get_last_lr()[0]:.2e} "
                               f"reviews/s {throughput.lap():.1f}")

        if rank == 0:
            metrics = evaluate(model, eval_loader, device=args.device)
            progress.write(f"epoch {epoch}: {json.dumps(metrics)}")
            model.save_pretrained(args.output_dir / f"epoch-{epoch}")
            tokenizer.save_pretrained(args.output_dir / f"epoch-{epoch}")
        if distributed:
            dist.barrier()

    progress.close()
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
