import bitsandbytes as bnb
from transformers import AutoModelForCausalLM, TrainingArguments

from vlm_trainer import ProjectorTrainer


def main():
    model = AutoModelForCausalLM.from_pretrained("llava-base")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
    trainer = ProjectorTrainer(model=model, args=args, train_dataset=load_data())
    trainer.train()
    head_optimizer = bnb.optim.PagedAdamW8bit(model.lm_head.parameters(), lr=1e-5)
    head_optimizer.step()


if __name__ == "__main__":
    main()
