import torch


def rollout(engine, prompts):
    return engine.generate(prompts)


def main(model, engine, loader):
    optimizer = torch.optim.AdamW(model.parameters())
    for prompts in loader:
        batch = rollout(engine, prompts)
        loss = model(batch).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(None, None, [])
