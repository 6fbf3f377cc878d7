import torch
from torch import nn

from capabilities import bind_device, cuda_warm, gpu_capabilities


def main():
    caps = gpu_capabilities()
    bind_device(0)
    cuda_warm()
    model = nn.Linear(128, 128)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    dtype = torch.float8_e4m3fn if caps["fp8"] else torch.bfloat16
    for _ in range(100):
        x = torch.randn(32, 128).to(dtype).float()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
