from vlmpkg.data import PaddedCollator
from vlmpkg.strategies import FSDPStrategy, TrainingStrategy

STRATEGIES = {"fsdp": FSDPStrategy, "plain": TrainingStrategy}


def get_train_strategy(name, model, lr):
    return STRATEGIES[name](model, lr)


def get_collator(pad_token_id):
    return PaddedCollator(pad_token_id)
