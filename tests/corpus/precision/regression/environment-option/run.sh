#!/bin/bash
# The documented run: the CUDA kernel, the x070 model.
KERNEL="fused" # fused => the CUDA WKV kernel
# MODEL_TYPE="mamba" # pip install mamba_ssm
MODEL_TYPE="x070"
python train.py --kernel $KERNEL --model_type $MODEL_TYPE --head_size 64
