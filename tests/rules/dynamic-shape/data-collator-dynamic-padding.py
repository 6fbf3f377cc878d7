"""Collators for classification and seq2seq fine-tuning."""
from transformers import (DataCollatorForLanguageModeling, DataCollatorForSeq2Seq, DataCollatorWithPadding,
                          default_data_collator)


def classification_collator(tokenizer):
    # expect: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorWithPadding(tokenizer=tokenizer)


def seq2seq_collator(tokenizer, model):
    # expect: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)


def bucketed_collator(tokenizer):
    # ok: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorWithPadding(tokenizer=tokenizer, pad_to_multiple_of=128)


def fixed_collator(tokenizer):
    # ok: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorWithPadding(tokenizer=tokenizer, padding="max_length", max_length=512)


def lm_collator(tokenizer):
    # ok: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorForLanguageModeling(tokenizer, mlm=False)


# ok: dynamic-shape.data-collator-dynamic-padding
collate = default_data_collator


def preference_collator(tokenizer):
    from trl.trainer.utils import DPODataCollatorWithPadding

    # expect: dynamic-shape.data-collator-dynamic-padding
    return DPODataCollatorWithPadding(pad_token_id=tokenizer.pad_token_id, label_pad_token_id=-100)


def preference_collator_fixed(tokenizer):
    from trl.trainer.dpo_trainer import DataCollatorForPreference

    # ok: dynamic-shape.data-collator-dynamic-padding
    return DataCollatorForPreference(pad_token_id=tokenizer.pad_token_id, pad_to_multiple_of=512)
