# A script that trains at module level and, every few steps, validates one batch and samples a completion
# inline in its loop (lucidrains-style train.py).
import random

import torch
from torch.utils.data import DataLoader

from model import TinyLM

NUM_BATCHES = 10000
VALIDATE_EVERY = 100
GENERATE_EVERY = 500
LOG_EVERY = 10

model = TinyLM(num_tokens=256, dim=512).to("cuda")
optim = torch.optim.AdamW(model.parameters(), lr=3e-4)
train_loader = iter(DataLoader(torch.randint(0, 256, (1000, 129)), batch_size=4))
val_dataset = torch.randint(0, 256, (100, 129))

for i in range(NUM_BATCHES):
    model.train()
    loss = model(next(train_loader).cuda(), return_loss=True)
    loss.backward()
    print(f"training loss: {loss.item()}")
    optim.step()
    optim.zero_grad()

    if i % LOG_EVERY == 0:
        print(f"grad scale: {loss.detach().item()}")

    if i % VALIDATE_EVERY == 0:
        model.eval()
        with torch.no_grad():
            loss = model(val_dataset[:4].cuda(), return_loss=True)
            print(f"validation loss: {loss.item()}")

    if i % GENERATE_EVERY == 0:
        model.eval()
        inp = random.choice(val_dataset)[:64]
        if hasattr(model, "module"):
            sample = model.module.generate(128, inp[None, ...].cuda())
        else:
            sample = model.generate(128, inp[None, ...].cuda())
        print(sample.shape)
