"""Supervised fine-tuning on instruction data: examples are tokenized one by one, the collator pads."""
from dataclasses import dataclass

import torch
import transformers
from torch.utils.data import Dataset

IGNORE_INDEX = -100


def tokenize_texts(strings, tokenizer):
    tokenized = [
        tokenizer(text, return_tensors="pt", padding="longest", max_length=tokenizer.model_max_length, truncation=True)
        for text in strings
    ]
    input_ids = [t.input_ids[0] for t in tokenized]
    return dict(input_ids=input_ids, lengths=[ids.ne(tokenizer.pad_token_id).sum().item() for ids in input_ids])


class InstructionData(Dataset):
    def __init__(self, records, tokenizer):
        texts = [r["prompt"] + r["answer"] for r in records]
        self.input_ids = tokenize_texts(texts, tokenizer)["input_ids"]

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        return dict(input_ids=self.input_ids[i], labels=self.input_ids[i].clone())


@dataclass
class PadCollator:
    tokenizer: transformers.PreTrainedTokenizer

    def __call__(self, instances):
        input_ids = [x["input_ids"] for x in instances]
        labels = [x["labels"] for x in instances]
        input_ids = torch.nn.utils.rnn.pad_sequence(input_ids, batch_first=True, padding_value=self.tokenizer.pad_token_id)
        labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=IGNORE_INDEX)
        return dict(input_ids=input_ids, labels=labels, attention_mask=input_ids.ne(self.tokenizer.pad_token_id))


def train(records, model_name, output_dir):
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_name, model_max_length=512)
    model = transformers.AutoModelForCausalLM.from_pretrained(model_name)
    args = transformers.TrainingArguments(output_dir=output_dir, per_device_train_batch_size=4)
    trainer = transformers.Trainer(model=model, args=args, train_dataset=InstructionData(records, tokenizer),
                                   data_collator=PadCollator(tokenizer))
    trainer.train()


if __name__ == "__main__":
    train([], "meta-llama/Llama-3.2-1B", "out")
