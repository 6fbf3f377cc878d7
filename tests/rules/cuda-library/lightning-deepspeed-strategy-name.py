"""Pretraining with the Lightning Trainer, ZeRO stage 2 by name."""
from typing import Literal

import lightning as L
import pytorch_lightning as pl


def build(model, devices):
    # expect: cuda-library.lightning-deepspeed-strategy-name
    trainer = L.Trainer(accelerator="auto", devices=devices, strategy="deepspeed_stage_2", precision="bf16-mixed")
    return trainer


def build_legacy(devices):
    # expect: cuda-library.lightning-deepspeed-strategy-name
    return pl.Trainer(devices=devices, strategy="deepspeed")


def build_fsdp(devices):
    # ok: cuda-library.lightning-deepspeed-strategy-name
    return L.Trainer(devices=devices, strategy="fsdp")


def scheduler_options():
    # ok: cuda-library.lightning-deepspeed-strategy-name
    return dict(strategy="deepspeed_stage_2")


def build_choice(devices, strategy: Literal["auto", "ddp", "fsdp"] = "fsdp"):
    # ok: cuda-library.lightning-deepspeed-strategy-name
    return L.Fabric(devices=devices, strategy=strategy)


def build_any(devices, strategy: str = "ddp"):
    # expect: cuda-library.lightning-deepspeed-strategy-name
    return L.Fabric(devices=devices, strategy=strategy)
