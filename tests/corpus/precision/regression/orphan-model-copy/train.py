import torch
from transformers import LlamaConfig

from vlm.model.language_model.vlm_llama import VlmLlamaForCausalLM


def main():
    model = VlmLlamaForCausalLM(LlamaConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for step in range(100):
        input_ids = torch.randint(0, 1000, (2, 16))
        loss = model(input_ids, torch.randn(2, 4, 64), labels=input_ids).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
