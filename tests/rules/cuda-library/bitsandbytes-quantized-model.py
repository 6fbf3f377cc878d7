"""QLoRA setup through transformers and peft (no direct bitsandbytes import)."""
import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def load(model_name):
    # expect: cuda-library.bitsandbytes-quantized-model
    quant = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
    model = AutoModelForCausalLM.from_pretrained(model_name, quantization_config=quant, device_map="auto")
    # ok: cuda-library.bitsandbytes-quantized-model
    model = prepare_model_for_kbit_training(model)
    # ok: cuda-library.bitsandbytes-quantized-model
    return get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"]))
