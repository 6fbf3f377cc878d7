import time

from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("big-model")
inputs = tokenizer("Tell me about rivers.", return_tensors="pt")
model = AutoModelForCausalLM.from_pretrained("big-model", load_in_8bit=True)
draft = AutoModelForCausalLM.from_pretrained("small-model")
start = time.time()
outputs = model.generate(**inputs, assistant_model=draft, max_new_tokens=64)
print(tokenizer.batch_decode(outputs, skip_special_tokens=True), time.time() - start)
