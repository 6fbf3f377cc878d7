"""Model FLOPs utilisation: time one forward and backward pass per batch size."""
import time

import torch

from model import TinyGPT

device = torch.device("cuda")
peak = {"A100": 312e12, "H100": 989e12}
name = torch.cuda.get_device_name(0)

for batch_size in (8, 16, 32):
    model = TinyGPT().bfloat16().to(device)
    model.train()
    tokens = torch.randint(0, 512, (batch_size, 256), device=device)
    torch.cuda.synchronize()
    start = time.time()
    loss = model(tokens).float().sum()
    loss.backward()
    torch.cuda.synchronize()
    elapsed = time.time() - start
    print(batch_size, 6 * sum(p.numel() for p in model.parameters()) * tokens.numel() / elapsed / peak.get(name, 1e15))
