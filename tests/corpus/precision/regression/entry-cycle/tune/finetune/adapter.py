from pathlib import Path
from typing import Literal, Optional

import lightning as L
import torch
from lightning.fabric.plugins import BitsandbytesPrecision

from tune.utils import instantiate_bnb_optimizer, save_hyperparameters


def setup(
    out_dir: Path = Path("out/adapter"),
    precision: Optional[str] = None,
    quantize: Optional[Literal["bnb.nf4", "bnb.nf4-dq", "bnb.fp4", "bnb.int8-training"]] = None,
    optimizer: str = "AdamW",
) -> None:
    plugins = None
    if quantize is not None and quantize.startswith("bnb."):
        plugins = BitsandbytesPrecision(quantize[4:], torch.bfloat16)
        precision = None
    fabric = L.Fabric(devices=1, precision=precision, plugins=plugins)
    fabric.launch(main, out_dir, optimizer)


def main(fabric: L.Fabric, out_dir: Path, optimizer: str) -> None:
    model = fabric.setup_module(torch.nn.Linear(64, 64))
    if isinstance(fabric.strategy.precision, BitsandbytesPrecision):
        optimizer = instantiate_bnb_optimizer(optimizer, model.parameters())
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    optimizer = fabric.setup_optimizers(optimizer)
    fit(fabric, model, optimizer, out_dir)


def fit(fabric: L.Fabric, model: torch.nn.Module, optimizer, out_dir: Path) -> None:
    for step in range(100):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if step % 50 == 0:
            fabric.save(out_dir / f"step-{step:06d}.pth", {"model": model})
            save_hyperparameters(setup, out_dir)
