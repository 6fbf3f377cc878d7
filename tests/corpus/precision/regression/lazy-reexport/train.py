import torch

from tuner.core.run import execute_training
from tuner.loaders import ModelLoader, load_tokenizer


def setup_model_and_tokenizer(cfg):
    tokenizer = load_tokenizer(cfg)
    model_loader = ModelLoader(cfg)
    model = model_loader.load()
    return model, tokenizer


def train(cfg):
    # Set-up before the run, the run itself in a helper: only the helper is step code.
    model, tokenizer = setup_model_and_tokenizer(cfg)
    optimizer = torch.optim.AdamW(model.parameters())
    execute_training(model, optimizer, cfg["steps"])


if __name__ == "__main__":
    train({"model": "base", "steps": 10})
