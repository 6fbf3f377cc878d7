"""Collator with bucketed padding."""
from transformers import DataCollatorWithPadding


def collator(tokenizer, training_args):
    if training_args.bucketed:
        # expect: neuron-ready.pad-to-multiple-of
        return DataCollatorWithPadding(tokenizer, pad_to_multiple_of=128)
    # ok: neuron-ready.pad-to-multiple-of
    return DataCollatorWithPadding(tokenizer, pad_to_multiple_of=None)


def encode(tokenizer, texts):
    # expect: neuron-ready.pad-to-multiple-of
    return tokenizer(texts, padding=True, pad_to_multiple_of=1024)


def encode_aligned(tokenizer, texts):
    # ok: neuron-ready.pad-to-multiple-of
    return tokenizer(texts, padding=True, pad_to_multiple_of=8)
