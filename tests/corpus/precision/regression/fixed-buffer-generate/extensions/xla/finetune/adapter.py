import sys
from pathlib import Path

import torch
import torch_xla.core.xla_model as xm

# run from the repository root: the extension folder is put on sys.path and imported as `xla`
sys.path.append(str(Path(__file__).parents[2].resolve()))

from xla.generate.base import generate  # noqa: E402

from recipes import generate as growing  # noqa: E402


def validate(model, val_batches, prompt_ids):
    model.eval()
    losses = [model(x).mean() for x in val_batches]
    output = generate(model, prompt_ids, max_returned_tokens=len(prompt_ids) + 50)
    sample = growing.generate(model, prompt_ids[None], max_new_tokens=50)
    model.train()
    return torch.stack(losses).mean(), output, sample


def train(model, optimizer, batches, val_batches, prompt_ids, eval_interval=100):
    for step, batch in enumerate(batches):
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        xm.mark_step()
        if step % eval_interval == 0:
            validate(model, val_batches, prompt_ids)


if __name__ == "__main__":
    net = torch.nn.Linear(4, 4)
    train(net, torch.optim.SGD(net.parameters(), lr=0.1), [], [], torch.tensor([1, 2, 3]))
