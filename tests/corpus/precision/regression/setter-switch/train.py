import argparse

import torch

from attention import Block


def enable_attention(model, mem_eff_attn, xformers):
    if mem_eff_attn:
        print("memory-efficient attention is built in")
    elif xformers:
        model.set_use_xformers(True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xformers", action="store_true", help="use xformers attention")
    parser.add_argument("--mem_eff_attn", action="store_true")
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()

    model = Block(512)
    model.mix.set_fused(True)
    enable_attention(model, args.mem_eff_attn, args.xformers)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = torch.load("latents.pt")
    loader = torch.utils.data.DataLoader(data, batch_size=16, drop_last=True)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step >= args.steps:
            break


if __name__ == "__main__":
    main()
