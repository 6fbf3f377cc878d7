import torch

from lib.init import init_from_activations


def main(model, loader):
    init_from_activations(model, loader)
    optimizer = torch.optim.AdamW(model.parameters())
    for batch in loader:
        model(batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main(build_model(), build_loader())
