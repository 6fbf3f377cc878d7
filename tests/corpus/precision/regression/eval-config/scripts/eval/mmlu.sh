#!/bin/bash
# Zero-shot MMLU of a finished checkpoint.
python -m eval.mmlu.run_eval \
    --ntrain 0 \
    --model_name_or_path output/llama_7b_sft \
    --eval_batch_size 4 \
    --load_in_8bit
