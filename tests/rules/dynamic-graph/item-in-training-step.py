"""Training loop that logs the loss every step."""
import logging

import numpy as np
import torch

log = logging.getLogger(__name__)


def train_one_epoch(model, loader, optimizer, scheduler, log_every=50):
    losses = []
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        # expect: dynamic-graph.item-in-training-step
        losses.append(loss.item())
        labels = torch.tensor(batch["label_list"])
        # ok: dynamic-graph.item-in-training-step
        negatives = (1 - labels).sum().item()
        # expect: dynamic-graph.item-in-training-step
        positives = (1 - batch["labels"]).sum().item() + negatives
        # ok: dynamic-graph.item-in-training-step
        assert torch.isfinite(loss).item(), "loss diverged"
        if step % log_every == 0:
            # ok: dynamic-graph.item-in-training-step
            log.info("step %d loss %.4f lr %.2e", step, loss.item(), scheduler.get_last_lr()[0])
        if step % log_every == 1:  # any remainder: still once every log_every steps
            # ok: dynamic-graph.item-in-training-step
            log.info("grad norm %.4f", model.weight.grad.norm().item())
    # ok: dynamic-graph.item-in-training-step
    return np.mean(losses).item()


def train_on_xla(model, loader, optimizer, device):
    import torch_xla.core.xla_model as xm

    def report(step, loss):
        # ok: dynamic-graph.item-in-training-step
        print(f"step {step} loss {loss.item():.4f}")

    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        xm.optimizer_step(optimizer)
        optimizer.zero_grad()
        # ok: dynamic-graph.item-in-training-step
        xm.add_step_closure(lambda: print(loss.item()))
        xm.add_step_closure(report, args=(step, loss))


def compute_stats(values):
    # ok: dynamic-graph.item-in-training-step
    return torch.tensor(values).mean().item()


def step_while_all_ranks_have_data(model, batch, optimizer, has_data):
    torch.distributed.all_reduce(has_data, op=torch.distributed.ReduceOp.MIN)
    # The read a branch decides on is reported here, once (data-dependent-branch leaves it to this rule).
    # expect: dynamic-graph.item-in-training-step
    if has_data.item() == 0:
        return None
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    return loss.detach()
