from contextlib import contextmanager

import torch
from accelerate import Accelerator

from backends import DistributedBackend


@contextmanager
def unwrap_for_generation(model, accelerator):
    if DistributedBackend(accelerator).is_zero3:
        import deepspeed

        with deepspeed.zero.GatheredParameters(model.parameters()):
            yield accelerator.unwrap_model(model)
    else:
        yield accelerator.unwrap_model(model)


def sync_weights(model, accelerator):
    plugin = accelerator.state.deepspeed_plugin
    zero_stage_3 = plugin is not None and plugin.zero_stage == 3
    if zero_stage_3:
        import deepspeed

        deepspeed.zero.GatheredParameters(list(model.parameters()))
    if DistributedBackend(accelerator).is_main_process:
        torch.cuda.synchronize()


def main():
    accelerator = Accelerator()
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer = accelerator.prepare(model, optimizer)
    for step in range(10):
        with unwrap_for_generation(model, accelerator) as unwrapped:
            unwrapped(torch.randn(8, 16))
        sync_weights(model, accelerator)
        loss = model(torch.randn(8, 16)).pow(2).mean()
        accelerator.backward(loss)
        optimizer.step()


if __name__ == "__main__":
    main()
