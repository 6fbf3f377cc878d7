import torch
import torch.nn.functional as F

from lmtrain.model import TinyLM


def train(steps=100, seq_len=512, batch=8):
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(steps):
        ids = torch.randint(0, 32000, (batch, seq_len))
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    train()
