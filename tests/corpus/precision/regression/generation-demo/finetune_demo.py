"""A fine-tuning walkthrough: prompt the base model, train a few steps, prompt again."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("org/base-model")
model = AutoModelForCausalLM.from_pretrained("org/base-model", torch_dtype=torch.bfloat16).to("cuda")

prompt = "Summarize this dialog:\nA: Are you free tomorrow?\nB: No.\n---\nSummary:\n"
demo_input = tokenizer(prompt, return_tensors="pt").to("cuda")
with torch.inference_mode():
    print(tokenizer.decode(model.generate(**demo_input, max_new_tokens=64)[0]))

chat = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], return_tensors="pt", return_dict=True)
chat["input_ids"] = chat["input_ids"].to(device="cuda")
output = model.generate(**chat, max_new_tokens=64)[0]
print(tokenizer.decode(output[len(chat["input_ids"][0]) :]))

batch = tokenizer([prompt] * 4, return_tensors="pt", padding="max_length", max_length=64).to("cuda")
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
for step in range(10):
    loss = model(**batch, labels=batch["input_ids"]).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()

with torch.inference_mode():
    print(tokenizer.decode(model.generate(**demo_input, max_new_tokens=64)[0]))
