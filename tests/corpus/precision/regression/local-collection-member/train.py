import torch

from optim import create_fused_optimizer, create_optimizer


def main(batches):
    model = torch.nn.Linear(16, 16)
    optimizer = create_optimizer(model)
    fused = create_fused_optimizer(model)
    for x in batches:
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        fused.step()


if __name__ == "__main__":
    main([])
