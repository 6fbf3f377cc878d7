"""Alpaca-style collator aligned for tensor cores."""
import transformers


def build_collator(tokenizer):
    # expect: dynamic-shape.small-pad-multiple
    return transformers.DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8, return_tensors="pt", padding=True)


def build_bucketed(tokenizer):
    # ok: dynamic-shape.small-pad-multiple
    return transformers.DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=256, padding=True)


def encode(tokenizer, texts, max_length=512):
    # ok: dynamic-shape.small-pad-multiple
    return tokenizer(texts, padding="max_length", max_length=max_length, pad_to_multiple_of=8)
