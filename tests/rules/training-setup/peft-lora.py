"""LoRA adapters on a causal LM."""
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM


def build(model_name, r=16):
    model = AutoModelForCausalLM.from_pretrained(model_name)
    # expect: training-setup.peft-lora
    config = LoraConfig(r=r, lora_alpha=32, target_modules=["q_proj", "v_proj"], lora_dropout=0.05)
    # expect: training-setup.peft-lora
    model = get_peft_model(model, config)
    # ok: training-setup.peft-lora
    model.print_trainable_parameters()
    return model
