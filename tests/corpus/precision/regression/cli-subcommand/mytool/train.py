import torch

from mytool.model import TinyLM


def run_train():
    torch.cuda.set_device(0)
    model = TinyLM().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(10):
        batch = torch.randint(0, 100, (4, 64), device="cuda")
        loss = model(batch).float().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
