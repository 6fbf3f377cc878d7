"""A quickstart notebook as a script: preview, fine-tune with the repo's train(), preview again."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from cookbook.train_utils import train

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-1B")
prompt = tokenizer("Summarize this dialog:", return_tensors="pt")

model.eval()
with torch.inference_mode():
    # ok: dynamic-shape.generate-in-training
    print(model.generate(**prompt, max_new_tokens=100))

optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
train(model, tokenizer, loader, optimizer)

model.eval()
with torch.inference_mode():
    # ok: dynamic-shape.generate-in-training
    print(model.generate(**prompt, max_new_tokens=100))
    for question in held_out_questions:
        # expect: dynamic-shape.generate-in-training
        print(model.generate(**tokenizer(question, return_tensors="pt"), max_new_tokens=100))
