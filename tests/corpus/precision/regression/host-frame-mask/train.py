"""A training loop that tabulates per-step losses with pandas every N steps."""
import pandas as pd
import torch


def train(model, loader, log_every=100):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    history = []
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        logits = model(x)
        keep = y >= 0
        loss = torch.nn.functional.cross_entropy(logits[keep], y[keep])
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        history.append({"step": step, "loss": loss.detach()})
        if step % log_every == 0:
            df = pd.DataFrame([{"step": h["step"], "loss": float(h["loss"])} for h in history])
            spikes = df[df["loss"] > 2 * df["loss"].median()]
            print(len(spikes))


if __name__ == "__main__":
    model = torch.nn.Linear(32, 10).cuda()
    train(model, torch.load("batches.pt", map_location="cpu"))
