import torch

from farm.common import make_generative_lm


def main():
    model = make_generative_lm("llama-7b", flash_attn=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for step in range(100):
        input_ids = torch.randint(0, 32000, (2, 64), device="cuda")
        loss = model(input_ids=input_ids, labels=input_ids).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
