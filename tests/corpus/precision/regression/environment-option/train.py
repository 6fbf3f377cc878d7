import argparse
import os

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_type", default="x052", type=str)
    parser.add_argument("--kernel", default="torch", type=str)
    parser.add_argument("--head_size", default=64, type=int)
    args = parser.parse_args()
    os.environ["MODEL_TYPE"] = args.model_type
    os.environ["TRAIN_KERNEL"] = args.kernel
    os.environ["HEAD_SIZE"] = str(args.head_size * 2)

    from model import Block

    model = Block(512)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = torch.load("tokens.pt", map_location="cpu")
    loader = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True, drop_last=True)
    for batch in loader:
        loss = model(batch).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
