#!/bin/bash
# expect: cuda-library.config-deepspeed-launch
deepspeed train_lora.py --deepspeed playground/zero2.json \
    --lora_r 8 --bf16 True
# ok: cuda-library.config-deepspeed-launch
python train_lora.py --fsdp "full_shard auto_wrap" --bf16 True
# ok: cuda-library.config-deepspeed-launch
accelerate launch --config_file fsdp.yaml train.py --deepspeed_stage 3
DS_CONFIG=playground/zero3.json
# expect: cuda-library.config-deepspeed-launch
torchrun --nproc_per_node 8 train_lora.py --deepspeed $DS_CONFIG --bf16 True
# ok: cuda-library.config-deepspeed-launch
python train_lora.py --deepspeed_stage $STAGE
