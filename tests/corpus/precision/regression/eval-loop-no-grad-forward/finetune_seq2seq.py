"""Seq2seq prompt tuning: train an epoch, then score the validation set (peft-example style)."""
import torch
from torch.utils.data import DataLoader


def main(model, tokenizer, optimizer, lr_scheduler, train_dataset, eval_dataset, num_epochs, device):
    train_dataloader = DataLoader(train_dataset, shuffle=True, batch_size=8)
    eval_dataloader = DataLoader(eval_dataset, batch_size=8)
    for epoch in range(num_epochs):
        model.train()
        total_loss = 0
        for step, batch in enumerate(train_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss
            total_loss += loss.detach().float()
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            print(step, loss.item())

        model.eval()
        eval_preds = []
        correct = 0
        for step, batch in enumerate(eval_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.no_grad():
                outputs = model(**batch)
            preds = torch.argmax(outputs.logits, -1).detach().cpu().numpy()
            eval_preds.extend(tokenizer.batch_decode(preds, skip_special_tokens=True))
            correct += (outputs.logits.argmax(-1) == batch["labels"]).sum().item()
        print(f"{epoch=}: {total_loss / len(train_dataloader)} {correct}")


if __name__ == "__main__":
    main(*([None] * 8))
