"""GLUE-style token tagging with the packaged copy of the model."""
import torch
from bert_lib import BertForTokenClassification


def main():
    model = BertForTokenClassification(num_labels=9)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    for batch in torch.load("ner_batches.pt"):
        loss = model(batch["input_ids"], batch["attention_mask"], batch["labels"])
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
