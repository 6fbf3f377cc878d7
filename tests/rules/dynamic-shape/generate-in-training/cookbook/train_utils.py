"""The repo's training utility: the loop, with a periodic sample every `sample_every` steps."""
import torch


def train(model, tokenizer, loader, optimizer, sample_every=500):
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % sample_every == 0:
            with torch.no_grad():
                # expect: dynamic-shape.generate-in-training
                print(model.generate(**tokenizer("Once upon a time", return_tensors="pt"), max_new_tokens=32))
    return loss
