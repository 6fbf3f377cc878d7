import torch

from lab.optim.schedules import cosine


def main():
    model = torch.nn.Linear(16, 16).cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(100):
        for group in optimizer.param_groups:
            group["lr"] = cosine(step, 100, 1e-3)
        loss = model(torch.randn(4, 16, device="cuda")).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
