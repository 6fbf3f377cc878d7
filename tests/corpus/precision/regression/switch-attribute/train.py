import sys

import torch
from transformers import AutoModelForCausalLM

from trainer import ApexTrainer, Trainer, TrainingArguments


def main():
    args = TrainingArguments()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    loader = torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=8, drop_last=True)
    trainer_cls = ApexTrainer if "--apex-step" in sys.argv else Trainer
    trainer_cls(model, args, loader).train()


if __name__ == "__main__":
    main()
