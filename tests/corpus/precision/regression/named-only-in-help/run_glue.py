import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepspeed", default=None, help="path to a deepspeed json config (e.g. ds_config.json)")
    parser.add_argument("--epochs", default=3, type=int)
    args = parser.parse_args()
    model = torch.nn.Linear(32, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    if args.deepspeed is not None:
        import deepspeed

        model, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config=args.deepspeed)
    loader = torch.utils.data.DataLoader(torch.load("glue.pt", map_location="cpu"), batch_size=32, drop_last=True)
    for _ in range(args.epochs):
        for features, labels in loader:
            loss = torch.nn.functional.cross_entropy(model(features), labels)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
