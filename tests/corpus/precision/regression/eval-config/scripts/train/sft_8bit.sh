#!/bin/bash
# Supervised fine-tuning with the base model loaded in 8 bits.
python sft.py \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --per_device_train_batch_size 4 \
    --load_in_8bit
