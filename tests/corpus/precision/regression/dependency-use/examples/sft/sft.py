"""A TRL fine-tune example with its own requirements."""
from datasets import load_dataset
from trl import SFTConfig, SFTTrainer

dataset = load_dataset("trl-lib/Capybara", split="train")
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", train_dataset=dataset, args=SFTConfig(output_dir="out", max_length=512))
trainer.train()
