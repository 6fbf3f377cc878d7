"""Training loop with interval logging."""
import torch


def train(model, loader, optimizer, writer, log_interval=100):
    running = torch.zeros(())
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        running += loss.detach()
        if step % log_interval == 0:
            # expect: dynamic-graph.item-for-periodic-logging
            writer.add_scalar("train/loss", (running / log_interval).item(), step)
            running.zero_()
        # ok: dynamic-graph.item-for-periodic-logging
        tokens = x.numel() + y.sum().item()
    return tokens
