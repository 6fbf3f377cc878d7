import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

from adaptlib import spectral_init

model = AutoModelForCausalLM.from_pretrained("some/model")
loader = torch.utils.data.DataLoader(list(range(8)), batch_size=2)
state = spectral_init(model, loader)

args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
trainer = Trainer(model=model, args=args, train_dataset=loader.dataset)
trainer.train()

model.generate(torch.tensor([[1, 2, 3]]), max_new_tokens=8)
