import torch
import torch.nn.functional as F

from lm.model import LM


def main():
    model = LM()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(100):
        ids = torch.randint(0, 32000, (8, 2048))
        logits = model(ids)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), ids.view(-1))
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
