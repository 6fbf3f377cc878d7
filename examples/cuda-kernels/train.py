"""Trains the MoE GPT with DDP over NCCL, fp16 autocast and fused optimizers."""
from __future__ import annotations

import argparse
import os
import time

import bitsandbytes as bnb
import torch
import torch.distributed as dist
from apex.optimizers import FusedAdam
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from data import PadCollator, StoryDataset, encode_prompts, load_tokenizer
from model import GPT, GPTConfig

PREVIEW_PROMPTS = ["Once upon a time, a little fox", "The robot looked at the sky and"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-len", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--optimizer", choices=["fused_adam", "adamw8bit"], default="fused_adam")
    parser.add_argument("--log-every", type=int, default=50)
    parser.add_argument("--save", default="checkpoints/moe_gpt.pt")
    return parser.parse_args()


def build_optimizer(model: torch.nn.Module, args: argparse.Namespace) -> torch.optim.Optimizer:
    if args.optimizer == "adamw8bit":
        return bnb.optim.AdamW8bit(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    return FusedAdam(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1, adam_w_mode=True)


@torch.no_grad()
def preview(model: GPT, tokenizer, max_new_tokens: int = 32) -> list[str]:
    """Greedy continuation of the preview prompts (padded batch, so only a rough look)."""
    ids = encode_prompts(tokenizer, PREVIEW_PROMPTS, max_len=64).cuda()
    for _ in range(max_new_tokens):
        with torch.cuda.amp.autocast(dtype=torch.float16):
            logits, _ = model(ids)
        ids = torch.cat([ids, logits[:, -1].argmax(dim=-1, keepdim=True)], dim=1)
    return tokenizer.batch_decode(ids, skip_special_tokens=True)


def main() -> None:
    args = parse_args()
    dist.init_process_group(backend="nccl")
    rank, local_rank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True

    tokenizer = load_tokenizer()
    dataset = StoryDataset("train", tokenizer, args.max_len)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=4,
                        collate_fn=PadCollator(tokenizer.pad_token_id), pin_memory=True)

    model = GPT(GPTConfig(max_seq_len=args.max_len)).cuda()
    ddp = DDP(model, device_ids=[local_rank], find_unused_parameters=True)
    optimizer = build_optimizer(ddp, args)
    scaler = torch.cuda.amp.GradScaler()

    step, started = 0, time.time()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for batch in loader:
            input_ids = batch["input_ids"].cuda(non_blocking=True)
            labels = batch["labels"].cuda(non_blocking=True)
            with torch.cuda.amp.autocast(dtype=torch.float16):
                _, loss = ddp(input_ids, labels)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            step += 1
            if rank == 0 and step % args.log_every == 0:
                tok_s = args.log_every * input_ids.numel() * dist.get_world_size() / (time.time() - started)
                print(f"epoch {epoch} step {step} len {input_ids.shape[1]} loss {loss.item():.3f} "
                      f"dropped {model.pop_dropped_tokens()} scale {scaler.get_scale():.0f} tok/s {tok_s:,.0f}")
                started = time.time()
        if rank == 0:
            print("\n".join(preview(model, tokenizer)))
            os.makedirs(os.path.dirname(args.save), exist_ok=True)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, args.save)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
