"""QLoRA setup: the model is loaded 4-bit, then prepared for k-bit training."""
import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def load(model_name, gradient_checkpointing=True):
    quant = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
    # ok: cuda-library.kbit-training-preparation
    model = AutoModelForCausalLM.from_pretrained(model_name, quantization_config=quant, device_map="auto")
    # expect: cuda-library.kbit-training-preparation
    model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=gradient_checkpointing)
    # ok: cuda-library.kbit-training-preparation
    return get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"]))
