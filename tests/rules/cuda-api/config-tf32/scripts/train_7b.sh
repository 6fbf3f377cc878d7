#!/bin/bash
# Full fine-tune of a 7B model on one 8-GPU node.
export WANDB_MODE=offline
# expect: cuda-api.config-tf32
torchrun --nproc_per_node=8 --master_port=20001 train.py --bf16 True --tf32 True \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --model_max_length 2048

# ok: cuda-api.config-tf32
CUDA_VISIBLE_DEVICES=0 python3 train.py --bf16 True --tf32 False --model_max_length 512
# ok: cuda-api.config-tf32
echo "remember --tf32 True on A100s"
