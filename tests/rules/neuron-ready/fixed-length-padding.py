"""Tokenisation with fixed-length padding."""


def tokenize(batch, tokenizer, max_length=1024):
    # expect: neuron-ready.fixed-length-padding
    return tokenizer(batch["text"], padding="max_length", truncation=True, max_length=max_length)


def tokenize_dynamic(batch, tokenizer):
    # ok: neuron-ready.fixed-length-padding
    return tokenizer(batch["text"], padding=True, truncation=True)
