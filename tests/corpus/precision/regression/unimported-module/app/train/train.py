import torch

from app.train.xformers_patch import replace_attention


def main(use_xformers=False):
    if use_xformers:
        replace_attention()
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
