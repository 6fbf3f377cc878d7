"""Fine-tunes a causal LM with a plain loop."""
import torch
from transformers import AutoModelForCausalLM


def main():
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation="sdpa")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in []:
        loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
