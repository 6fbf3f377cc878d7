"""QLoRA fine-tune: the memory map, the bf16 hint and the k-bit preparation of a 4-bit base model."""
import argparse

import torch
import transformers
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training


def get_model(args):
    if torch.cuda.is_available():
        n_gpus = torch.cuda.device_count()
    max_memory = {i: f"{args.max_memory_mb}MB" for i in range(n_gpus)}
    model = transformers.AutoModelForCausalLM.from_pretrained(
        args.model,
        device_map="auto",
        max_memory=max_memory,
        quantization_config=transformers.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4"),
    )
    if args.fp16 and args.bits == 4:
        if torch.cuda.is_bf16_supported():
            print("Your GPU supports bfloat16: train faster with --bf16")
    model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)
    return get_peft_model(model, LoraConfig(r=64, lora_alpha=16, target_modules=["q_proj", "v_proj"]))


def train():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="huggyllama/llama-7b")
    parser.add_argument("--max_memory_mb", type=int, default=80000)
    parser.add_argument("--fp16", action="store_true")
    parser.add_argument("--bits", type=int, default=4)
    args = parser.parse_args()
    model = get_model(args)
    trainer = transformers.Trainer(model=model, args=transformers.TrainingArguments(output_dir="out"))
    trainer.train()


if __name__ == "__main__":
    train()
