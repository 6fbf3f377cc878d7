import torch

from recipes.generate import generate


def validate(model, val_batches, prompt_ids):
    model.eval()
    losses = [model(x).mean() for x in val_batches]
    sample = generate(model, prompt_ids, max_new_tokens=50)
    model.train()
    return torch.stack(losses).mean(), sample


def fit(model, optimizer, batches, val_batches, prompt_ids, eval_interval=100):
    for step, batch in enumerate(batches):
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        if step % eval_interval == 0:
            validate(model, val_batches, prompt_ids)


if __name__ == "__main__":
    net = torch.nn.Linear(4, 4)
    fit(net, torch.optim.SGD(net.parameters(), lr=0.1), [], [], torch.tensor([[1, 2, 3]]))
