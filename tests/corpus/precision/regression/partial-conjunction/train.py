import argparse

import torch
from torch import nn


def sample(model, steps):
    tokens = torch.zeros(1, 1, dtype=torch.long)
    for _ in range(steps):
        logits = model(tokens.float())
        tokens = torch.cat([tokens, logits.argmax(-1, keepdim=True).long()], dim=1)
    return tokens


def maybe_sync(args, step, last_step):
    if not args.profile and step != last_step:
        return
    torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample_every", type=int, default=0)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--fused", type=int, default=1)
    args = parser.parse_args()
    model = nn.Linear(1, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    master_process = True
    num_steps = 100
    for step in range(num_steps):
        last_step = step == num_steps - 1
        loss = model(torch.randn(8, 1)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (args.sample_every > 0 and (step % args.sample_every == 0 or last_step)) and master_process:
            torch.cuda.synchronize()
            print(sample(model, 32))
        if args.fused and (step % 10 == 0 or last_step):
            pass
        else:
            torch.cuda.empty_cache()
        maybe_sync(args, step, last_step)


if __name__ == "__main__":
    main()
