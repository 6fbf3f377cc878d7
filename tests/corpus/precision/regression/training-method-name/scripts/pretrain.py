import torch

from vlmpkg.materialize import get_collator, get_train_strategy


def pretrain(model, dataset):
    torch.cuda.set_device(0)
    strategy = get_train_strategy("fsdp", model, lr=1e-4)
    strategy.run_setup()
    strategy.run_training(dataset, get_collator(0), epochs=1)


if __name__ == "__main__":
    pretrain(torch.load("model.pt", map_location="cpu"), torch.load("data.pt", map_location="cpu"))
