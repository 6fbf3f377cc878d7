#!/bin/bash
# A small run on one node, with the default optimizer.
python train.py --strategy deepspeed_stage_3 --steps 200
