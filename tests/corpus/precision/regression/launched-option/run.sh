#!/bin/bash
# The documented run: ZeRO stage 2 on every node.
python train.py --strategy deepspeed_stage_2 \
 --precision bf16 --steps 20000 --optim fused_adam
