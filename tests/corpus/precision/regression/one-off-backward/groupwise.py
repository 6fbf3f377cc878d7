import torch


def finetune_groupwise(layer, train_batches, valid_batches, epochs=3):
    opt = torch.optim.Adam(layer.parameters(), lr=1e-4)
    ema = [p.detach().clone() for p in layer.parameters()]
    for epoch in range(epochs):
        total = 0.0
        for inputs, targets in train_batches:
            loss = torch.nn.functional.mse_loss(layer(inputs), targets)
            loss.backward()
            opt.step()
            opt.zero_grad()
            with torch.no_grad():
                for shadow, param in zip(ema, layer.parameters()):
                    shadow.mul_(0.99).add_(param, alpha=0.01)
                    total += shadow.norm().item()
        layer.eval()
        valid_total = 0.0
        with torch.no_grad():
            for inputs, targets in valid_batches:
                valid_loss = torch.nn.functional.mse_loss(layer(inputs), targets)
                valid_total += valid_loss.item()
        layer.train()
        print(epoch, total, valid_total)


if __name__ == "__main__":
    batches = [(torch.randn(4, 8), torch.randn(4, 8)) for _ in range(10)]
    finetune_groupwise(torch.nn.Linear(8, 8), batches, batches)
