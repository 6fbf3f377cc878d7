# Databricks notebook source
import os

deepspeed_config = os.path.join(os.getcwd(), "config", "a100_config.json")

# COMMAND ----------

# expect: cuda-library.config-deepspeed-launch
!deepspeed --num_gpus=8 --module training.trainer --deepspeed {deepspeed_config} \
    --epochs 2 \
    --bf16 true

# COMMAND ----------

# ok: cuda-library.config-deepspeed-launch
!python -m training.trainer --epochs 1 --bf16 true
