"""Training step that skips bad batches."""
import torch
import torch_xla.core.xla_model as xm


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


def clipped_step(model, batch, optimizer, max_norm=1.0):
    loss = model(**batch).loss
    loss.backward()
    total_norm = torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()]))
    clip_coef = min(max_norm / (float(total_norm.item()) + 1e-6), 1.0)
    # A Python float: the sync is the `.item()` above, not this branch.
    # ok: dynamic-graph.data-dependent-branch-in-training-step
    if clip_coef < 1.0:
        for p in model.parameters():
            p.grad.mul_(clip_coef)
    scale = total_norm.sqrt() + 1e-6
    # expect: dynamic-graph.data-dependent-branch-in-training-step
    if scale.max() > 10:
        optimizer.zero_grad()
    optimizer.step()
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


def step_while_all_ranks_have_data(model, batch, optimizer, has_data):
    torch.distributed.all_reduce(has_data, op=torch.distributed.ReduceOp.MIN)
    # One cause, reported once: the `.item()` read (item-in-training-step), not also the branch on it.
    # ok: dynamic-graph.data-dependent-branch-in-training-step
    if has_data.item() == 0:
        return None
    # expect: dynamic-graph.data-dependent-branch-in-training-step
    if has_data.item() == 0 or torch.isnan(batch["input_ids"].float()).any():
        return None
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    return loss.detach()


def train_until_a_rank_runs_dry(model, data_iterator, optimizer, device, world_size):
    for step in range(1000):
        try:
            batch = next(data_iterator)
            has_data = torch.tensor(1, dtype=torch.long, device=device)
        except StopIteration:
            has_data = torch.tensor(0, dtype=torch.long, device=device)
        # ok: dynamic-graph.data-dependent-branch-in-training-step
        if step > 10 and world_size > 1:
            torch.distributed.all_reduce(has_data, op=torch.distributed.ReduceOp.SUM)
        # The collective wrote the ranks' sum into `has_data`: the branch reads it back every step.
        # expect: dynamic-graph.data-dependent-branch-in-training-step
        if has_data < world_size:
            break
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()


def reduce_across_replicas(tensor, op="sum", on_xla=False):
    # PyTorch/XLA takes the operation first: `op` is a string here, never a device value.
    if on_xla:
        return xm.all_reduce(op, [tensor])[0]
    # ok: dynamic-graph.data-dependent-branch-in-training-step
    if op == "sum":
        op = torch.distributed.ReduceOp.SUM
    torch.distributed.all_reduce(tensor, op=op)
    return tensor


def train_with_reduced_loss(model, loader, optimizer):
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        reduce_across_replicas(loss.detach())
        optimizer.step()
