import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def load_model_and_tokenizer(model_name="tiny-guard"):
    model = AutoModelForSequenceClassification.from_pretrained(model_name)
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    return model, tokenizer


def get_class_probabilities(model, tokenizer, text, temperature=1.0):
    inputs = tokenizer(text, return_tensors="pt", padding=True, truncation=True, max_length=512)
    with torch.no_grad():
        logits = model(**inputs).logits
    return torch.softmax(logits / temperature, dim=-1)
