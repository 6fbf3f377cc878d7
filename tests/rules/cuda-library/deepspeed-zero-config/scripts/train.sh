#!/bin/bash
deepspeed train.py --deepspeed configs/zero3_offload.yaml --bf16 True
