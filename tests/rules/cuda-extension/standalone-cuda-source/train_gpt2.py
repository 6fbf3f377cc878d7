"""Reference PyTorch GPT-2 trainer; the CUDA version in train_gpt2.cu is a separate program."""
import torch
import torch.nn as nn


class GPT(nn.Module):
    def __init__(self, vocab=50257, dim=768):
        super().__init__()
        # ok: cuda-extension.standalone-cuda-source
        self.wte = nn.Embedding(vocab, dim)

    def forward(self, idx):
        return self.wte(idx)


def main():
    model = GPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    x = torch.randint(0, 50257, (4, 64))
    loss = model(x).float().mean()
    loss.backward()
    optimizer.step()
