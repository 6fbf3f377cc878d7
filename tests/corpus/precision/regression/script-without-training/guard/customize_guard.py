import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig


def llm_eval(prompts, model_id="tiny-guard"):
    config = BitsAndBytesConfig(load_in_4bit=True)
    model = AutoModelForCausalLM.from_pretrained(model_id, quantization_config=config)
    tokenizer = AutoTokenizer.from_pretrained(model_id)
    scores = []
    for prompt in prompts:
        inputs = tokenizer([prompt], return_tensors="pt").to("cuda")
        scores.append(model.generate(**inputs, max_new_tokens=8))
    return scores


def run_validation(rows):
    return llm_eval([row["prompt"] for row in rows])


def finetune(model, loader):
    optimizer = torch.optim.AdamW(model.parameters())
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()


run_validation(validation_rows)
finetune(AutoModelForCausalLM.from_pretrained("tiny-guard"), train_loader)
