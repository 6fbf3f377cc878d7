import torch

from lib.model import TinyLM


def main():
    model = TinyLM().to("cuda")
    optimizer = torch.optim.AdamW(model.parameters())
    for ids in [torch.randint(0, 128, (4, 16))]:
        loss = model(ids.to("cuda")).logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
