"""Fine-tuning with the Hugging Face Trainer."""
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments
from trl import SFTTrainer


def main(train_ds, eval_ds, model_name):
    model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=2)
    # ok: training-setup.hf-trainer
    args = TrainingArguments(output_dir="out", num_train_epochs=3)
    # expect: training-setup.hf-trainer
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds)
    trainer.train()


def sft(model, ds, config):
    # expect: training-setup.hf-trainer
    return SFTTrainer(model=model, train_dataset=ds, args=config)
