import torch


def train_one_epoch(model, loader, optimizer, args):
    model.train()
    for i, batch in enumerate(loader):
        loss = model(batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        last_batch = i == len(loader) - 1
        is_console_step = (i % args.log_every_n_steps == 0) or last_batch
        is_metric_step = (i % args.metric_every == 0) or is_console_step
        if is_metric_step:
            print("loss", loss.item())
        print("every step", loss.item())


def main():
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_one_epoch(model, [torch.zeros(4)], optimizer, None)


if __name__ == "__main__":
    main()
