import torch
from pkg.dispatch import model_registry


def main():
    model = model_registry("debug")
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(3):
        loss = model(torch.randn(2, 64)).sum()
        loss.backward()
        opt.step()


def fast_variant():
    return model_registry("debug", moe_comm_backend="fast")


if __name__ == "__main__":
    main()
