"""Training step that skips bad batches."""
import torch


def train_step(model, batch, optimizer, max_loss=1e4):
    loss = model(**batch).loss
    # expect: dynamic-graph.data-dependent-branch-in-training-step
    if torch.isnan(loss):
        optimizer.zero_grad()
        return None
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    # expect: dynamic-graph.data-dependent-branch-in-training-step
    if not torch.isfinite(grad_norm):
        optimizer.zero_grad()
        return None
    optimizer.step()
    truncated = torch.tensor([len(x) >= 512 for x in batch["input_ids"]])
    # ok: dynamic-graph.data-dependent-branch-in-training-step
    if truncated.any():
        optimizer.zero_grad()
    # ok: dynamic-graph.data-dependent-branch-in-training-step
    if optimizer.param_groups[0]["lr"] > 0:
        optimizer.zero_grad()
    return loss.detach()


def validate(model, loader):
    total = 0.0
    for batch in loader:
        loss = model(**batch).loss
        # ok: dynamic-graph.data-dependent-branch-in-training-step
        if loss.max() > 100:
            continue
        total += float(loss)
    return total
