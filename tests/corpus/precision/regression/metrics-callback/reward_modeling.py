"""Reward-model training with the Hugging Face Trainer; accuracy is computed at each evaluation (alpaca_farm style)."""
import torch
from transformers import Trainer, TrainingArguments


def compute_reward_metrics(eval_prediction):
    logits = torch.tensor(eval_prediction.predictions, device="cuda").squeeze(-1)
    labels = torch.tensor(eval_prediction.label_ids[-1], device="cuda").squeeze(-1)
    predictions = (logits >= 0.0).long()
    accuracy = predictions.eq(labels).float().mean().item()
    return {"accuracy": accuracy}


class RankAccuracy:
    def __init__(self, k):
        self.k = k

    def __call__(self, eval_prediction):
        scores = torch.tensor(eval_prediction.predictions, device="cuda")
        return {"top_k": scores.topk(self.k).values.mean().item()}


class TokenAccuracy:
    def __call__(self, eval_prediction):
        preds = torch.tensor(eval_prediction.predictions, device="cuda")
        return {"accuracy": preds.eq(0).float().mean().item()}


def main(model, train_dataset, eval_dataset, output_dir):
    args = TrainingArguments(output_dir=output_dir, evaluation_strategy="steps", eval_steps=100)
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
                      compute_metrics=compute_reward_metrics)
    trainer.train()
    ranker = Trainer(model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
                     compute_metrics=RankAccuracy(k=4))
    ranker.train()
    metric_module = {}
    metric_module["compute_metrics"] = TokenAccuracy()
    sft = Trainer(model=model, args=args, train_dataset=train_dataset, **metric_module)
    sft.train()


if __name__ == "__main__":
    main(None, None, None, "out")
