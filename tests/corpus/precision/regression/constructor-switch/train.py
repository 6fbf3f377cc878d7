import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from collate import FinetuningCollator


def main():
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    collator = FinetuningCollator(tokenizer, 1024, trim_padding=True)
    loader = torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=8, collate_fn=collator, drop_last=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
