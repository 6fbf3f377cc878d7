"""Fine-tune with the example's own collator."""
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from utils import DataCollator

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
collator = DataCollator(eos_token_id=2, max_length=512)
eval_loader = DataLoader([], batch_size=8, collate_fn=collator)
trainer = Trainer(model=model, args=TrainingArguments("out", max_steps=100), data_collator=collator)
trainer.train()
