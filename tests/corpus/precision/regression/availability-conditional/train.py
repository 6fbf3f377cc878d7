import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from transformers.utils import is_flash_attn_2_available


def load_model(name, use_flash_attn=True):
    attn_implementation = "flash_attention_2" if (use_flash_attn and is_flash_attn_2_available()) else "eager"
    return AutoModelForCausalLM.from_pretrained(
        name, torch_dtype=torch.bfloat16, attn_implementation=attn_implementation
    )


def load_reference(name, use_flash_attn=True):
    attn_implementation = "flash_attention_2" if use_flash_attn else "eager"
    return AutoModelForCausalLM.from_pretrained(name, attn_implementation=attn_implementation)


def main():
    model = load_model("meta-llama/Llama-3.2-1B")
    reference = load_reference("meta-llama/Llama-3.2-1B")
    args = TrainingArguments(output_dir="out", bf16=True, max_steps=1000)
    Trainer(model=model, args=args, train_dataset=[], eval_dataset=[reference]).train()


if __name__ == "__main__":
    main()
