import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--strategy", default="auto", type=str)
parser.add_argument("--precision", default="bf16", type=str)
parser.add_argument("--steps", default=1000, type=int)
parser.add_argument("--optim", default="adamw", type=str)
args = parser.parse_args()

if "deepspeed" in args.strategy:
    import deepspeed

    deepspeed.init_distributed()

if "fused" in args.optim:
    from apex.optimizers import FusedAdam

model = nn.Linear(512, 512)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = None
if args.precision == "fp16":
    scaler = torch.cuda.amp.GradScaler()

for step in range(args.steps):
    x = torch.randn(8, 512)
    loss = model(x).square().mean()
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()
    optimizer.zero_grad()
