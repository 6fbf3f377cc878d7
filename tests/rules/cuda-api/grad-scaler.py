"""fp16 training with loss scaling."""
import torch
from torch.cuda.amp import GradScaler


def build_scaler(enabled):
    # expect: cuda-api.grad-scaler
    return torch.amp.GradScaler("cuda", enabled=enabled)


def train(model, loader, optimizer):
    # expect: cuda-api.grad-scaler
    scaler = GradScaler()
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        # ok: cuda-api.grad-scaler
        scaler.scale(loss).backward()
        # ok: cuda-api.grad-scaler
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()


def build_fsdp_scaler(cfg):
    from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

    # expect: cuda-api.grad-scaler
    return ShardedGradScaler() if cfg.compute_precision.grad_scaler else None
