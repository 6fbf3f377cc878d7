"""Debug prints left in the training loop."""
import torch


def train(model, loader, optimizer, print_every=100):
    for step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        # expect: dynamic-graph.print-tensor
        print(f"step {step} loss {loss}")
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % print_every == 0:
            # ok: dynamic-graph.print-tensor
            print("loss", loss)
        # ok: dynamic-graph.print-tensor
        print("step", step)


def describe(dataset):
    sample = torch.as_tensor(dataset[0][0])
    # ok: dynamic-graph.print-tensor
    print(sample)
