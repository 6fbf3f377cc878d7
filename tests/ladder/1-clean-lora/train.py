"""LoRA fine-tune of a Llama checkpoint on an instruction dataset (rung 1: nothing CUDA-specific)."""
import argparse

import torch
from datasets import load_dataset
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer, TrainingArguments


def tokenize(batch, tokenizer, max_length):
    return tokenizer(batch["text"], padding="max_length", truncation=True, max_length=max_length)


def build_model(name, rank):
    model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16)
    config = LoraConfig(r=rank, lora_alpha=2 * rank, target_modules=["q_proj", "v_proj"], lora_dropout=0.05)
    return get_peft_model(model, config)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="meta-llama/Llama-3.2-1B")
    parser.add_argument("--data", default="tatsu-lab/alpaca")
    parser.add_argument("--rank", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=512)
    args = parser.parse_args()

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    tokenizer.pad_token = tokenizer.eos_token
    data = load_dataset(args.data, split="train")
    data = data.map(lambda b: tokenize(b, tokenizer, args.max_length), batched=True, remove_columns=data.column_names)
    model = build_model(args.model, args.rank)
    training_args = TrainingArguments(
        output_dir="out",
        per_device_train_batch_size=8,
        gradient_accumulation_steps=4,
        learning_rate=2e-4,
        num_train_epochs=1,
        bf16=True,
        logging_steps=10,
        save_steps=500,
        dataloader_drop_last=True,
    )
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
    trainer = Trainer(model=model, args=training_args, train_dataset=data, data_collator=collator)
    trainer.train()
    model.save_pretrained("out/adapter")


if __name__ == "__main__":
    main()
