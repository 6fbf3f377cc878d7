"""Collate tests: dynamic padding in test code is not reported."""
from transformers import AutoTokenizer


def test_collate_pads():
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    # ok: dynamic-shape.tokenizer-dynamic-padding
    batch = tokenizer(["a", "a b c"], padding=True, return_tensors="pt")
    assert batch["input_ids"].shape[1] == 3
