import argparse

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def main(base_model: str, quantize: bool, epochs: int = 1):
    if quantize:
        model = AutoModelForCausalLM.from_pretrained(
            base_model, quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
        )
    else:
        model = AutoModelForCausalLM.from_pretrained(base_model, torch_dtype=torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for _ in range(epochs):
        loss = model(input_ids=torch.ones(1, 8, dtype=torch.long), labels=torch.ones(1, 8, dtype=torch.long)).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--base_model", default="gpt2")
    parser.add_argument("--quantize", action="store_true", help="load the base model in 4 bit")
    args = parser.parse_args()
    main(base_model=args.base_model, quantize=args.quantize)
