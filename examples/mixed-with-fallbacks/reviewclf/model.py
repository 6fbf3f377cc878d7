"""Model and tokenizer construction; flash-attn is optional."""
from __future__ import annotations

from transformers import AutoModelForSequenceClassification, AutoTokenizer, PreTrainedModel

try:
    import flash_attn  # noqa: F401  (used by transformers when attn_implementation="flash_attention_2")

    ATTN_IMPLEMENTATION = "flash_attention_2"
except ImportError:
    ATTN_IMPLEMENTATION = "sdpa"

DEFAULT_MODEL = "answerdotai/ModernBERT-base"
LABELS = ["1 star", "2 stars", "3 stars", "4 stars", "5 stars"]


def build_tokenizer(name: str = DEFAULT_MODEL):
    return AutoTokenizer.from_pretrained(name)


def build_model(name: str = DEFAULT_MODEL, attn_implementation: str | None = None) -> PreTrainedModel:
    """Loads the encoder with a fresh 5-way classification head."""
    return AutoModelForSequenceClassification.from_pretrained(
        name,
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id={label: index for index, label in enumerate(LABELS)},
        attn_implementation=attn_implementation or ATTN_IMPLEMENTATION,
    )
