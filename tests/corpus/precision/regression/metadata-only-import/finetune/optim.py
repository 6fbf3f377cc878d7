import bitsandbytes as bnb


def make_optimizer(model):
    return bnb.optim.AdamW8bit(model.parameters(), lr=1e-4)
