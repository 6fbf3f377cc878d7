"""Adapter fine-tuning with Lightning Fabric: DeepSpeed ZeRO-2 on several GPUs."""
import lightning as L
import torch
from lightning.fabric.strategies import DeepSpeedStrategy, FSDPStrategy

devices = 8
ds_config = {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}


def main():
    # expect: cuda-library.lightning-deepspeed-strategy
    strategy = DeepSpeedStrategy(config=ds_config) if devices > 1 else "auto"
    fabric = L.Fabric(accelerator="auto", devices=devices, precision="bf16-true", strategy=strategy)
    fabric.launch()
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model, optimizer = fabric.setup(model, optimizer)
    return model, optimizer


def sharded():
    # ok: cuda-library.lightning-deepspeed-strategy
    return L.Fabric(devices=devices, strategy=FSDPStrategy(sharding_strategy="FULL_SHARD"))
