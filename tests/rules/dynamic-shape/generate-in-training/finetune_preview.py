"""Fine-tuning script that previews a completion every eval_interval steps, with two decoders."""
import torch

from decoding import fixed, growing


def finetune(model, optimizer, loader, prompt, eval_interval=50):
    for step, batch in enumerate(loader):
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        if step % eval_interval == 0:
            # ok: dynamic-shape.generate-in-training
            fixed.generate(model, prompt, max_returned_tokens=prompt.size(0) + 32)
            # expect: dynamic-shape.generate-in-training
            growing.generate(model, prompt[None], max_new_tokens=32)


if __name__ == "__main__":
    net = torch.nn.Linear(4, 4)
    finetune(net, torch.optim.SGD(net.parameters(), lr=0.1), [], torch.tensor([1, 2]))
