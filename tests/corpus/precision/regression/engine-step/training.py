"""A Megatron-style loop over DeepSpeed's engine: the backward sits in a helper, the step in the loop."""
import deepspeed
import torch


def backward_step(model, loss):
    model.backward(loss)


def train_step(model, batches, grad_accum: int):
    losses = []
    for _ in range(grad_accum):
        loss = model(next(batches)).mean()
        backward_step(model, loss)
        model.step()
        losses.append(loss)
    return torch.stack(losses).mean().item()


def train_step_pipe(model, data_iterator):
    loss = model.train_batch(data_iter=data_iterator)
    torch.cuda.synchronize()
    return loss


def pretrain(model, ds_config, batches, steps: int, pipe: bool):
    model, _, _, _ = deepspeed.initialize(model=model, config=ds_config)
    for _ in range(steps):
        if pipe:
            train_step_pipe(model, batches)
        else:
            train_step(model, batches, grad_accum=4)
