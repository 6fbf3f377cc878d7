import torch
from torch.utils.data import DataLoader


def update(model, optimizer, batch):
    loss = torch.nn.functional.mse_loss(model(batch["x"]), batch["y"])
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    # if grad_norm is not finite, skip the update
    if not torch.isfinite(grad_norm):
        print(f"WARN: grad_norm is not finite: {grad_norm}")
        optimizer.zero_grad()
    else:
        optimizer.step()
    if torch.isfinite(loss).all():
        optimizer.zero_grad()
    else:
        print(f"WARN: loss is {loss}, batch skipped")
    print(f"grad norm {grad_norm}")
    return grad_norm


def main():
    model = torch.nn.Linear(32, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = torch.load("data.pt", map_location="cpu")
    loader = DataLoader(data, batch_size=32, shuffle=True, drop_last=True)
    for epoch in range(10):
        for batch in loader:
            update(model, optimizer, batch)


if __name__ == "__main__":
    main()
