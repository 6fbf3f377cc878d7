"""Supervised fine-tuning entry point."""
import argparse

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", required=True)
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    parser.add_argument("--load_in_8bit", action="store_true")
    args = parser.parse_args()
    quantization = BitsAndBytesConfig(load_in_8bit=True) if args.load_in_8bit else None
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path, quantization_config=quantization)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for batch in torch.load("batches.pt"):
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
