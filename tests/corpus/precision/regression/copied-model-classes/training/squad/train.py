"""SQuAD fine-tuning with the turing copy of the model."""
import torch
from turing.modeling import BertForQuestionAnswering


def main():
    model = BertForQuestionAnswering()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    for batch in torch.load("squad_batches.pt"):
        loss = model(batch["input_ids"], batch["start_positions"], batch["end_positions"])
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
