import argparse

import torch
from transformers import AutoConfig, AutoModelForCausalLM, BitsAndBytesConfig


def parse_args():
    parser = argparse.ArgumentParser(description="QLoRA fine-tune of a causal LM")
    parser.add_argument("--model_name_or_path", type=str, required=False, help="model to fine-tune")
    parser.add_argument("--config_name", type=str, default=None)
    parser.add_argument("--epochs", type=int, default=1)
    return parser.parse_args()


def main():
    args = parse_args()
    config = AutoConfig.from_pretrained(args.config_name or args.model_name_or_path)
    if args.model_name_or_path:
        model = AutoModelForCausalLM.from_pretrained(
            args.model_name_or_path,
            config=config,
            quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16),
        )
    else:
        model = AutoModelForCausalLM.from_config(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for _ in range(args.epochs):
        loss = model(input_ids=torch.ones(1, 8, dtype=torch.long), labels=torch.ones(1, 8, dtype=torch.long)).loss
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
