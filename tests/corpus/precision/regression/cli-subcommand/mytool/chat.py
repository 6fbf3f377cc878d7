import torch

from mytool.model import TinyLM


class Sampler:
    def __init__(self):
        self.model = TinyLM().eval()

    def generate(self, tokens):
        for _ in range(16):
            logits = self.model(tokens)
            next_token = logits[:, -1].argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, next_token], dim=1)
            if next_token.item() == 0:
                break
        return tokens


def run_chat():
    sampler = Sampler()
    sampler.model.cuda()
    while True:
        text = input("> ")
        if not text:
            return
        print(sampler.generate(torch.tensor([[ord(c) % 100 for c in text]])))
