import torch


def trigger_lazy_init_(model, device):
    """Run one dummy forward and backward so that the wrapper allocates its flat parameters."""
    dummy = torch.zeros(1, 16, device=device)
    with torch.cuda.amp.autocast(dtype=torch.bfloat16):
        (model(dummy) * 0).sum().backward()


def main():
    device = torch.device("cuda", 0)
    model = torch.nn.Linear(16, 16).to(device)
    trigger_lazy_init_(model, device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        batch = torch.randn(8, 16, device=device)
        with torch.cuda.amp.autocast(dtype=torch.bfloat16):
            loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
