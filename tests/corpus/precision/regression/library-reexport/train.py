import torch

from sslib.fsdp import FusedLayerNorm, ShardedGradScaler, wrap


def main(model, loader, optimizer):
    model = wrap(model)
    scaler = ShardedGradScaler()
    norm = FusedLayerNorm(16) if FusedLayerNorm is not None else torch.nn.LayerNorm(16)
    for batch in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(norm(batch)).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    main(*build())
