import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, TrainingArguments

from rollout_trainer import RolloutTrainer


def length_reward(completions):
    return (completions != 0).float().sum(dim=-1)


def main():
    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", torch_dtype=torch.bfloat16)
    dataset = load_dataset("trl-lib/tldr", split="train")
    trainer = RolloutTrainer(
        model=model,
        args=TrainingArguments(output_dir="out", per_device_train_batch_size=4),
        train_dataset=dataset,
        processing_class=tokenizer,
        reward_fn=length_reward,
    )
    trainer.train()


if __name__ == "__main__":
    main()
