"""Evaluation loop and classification metrics."""
from __future__ import annotations

import torch

from reviewclf.model import LABELS


@torch.no_grad()
def compute_eval_metrics(preds: torch.Tensor, golds: torch.Tensor) -> dict:
    """Accuracy, macro-F1 over the labels present, within-one-star accuracy and per-class recall."""
    f1_scores, recall_by_class = [], {}
    for label in torch.unique(golds).tolist():
        is_gold, is_pred = golds == label, preds == label
        hits = (is_gold & is_pred).sum().float()
        precision = hits / is_pred.sum().clamp(min=1)
        recall = hits / is_gold.sum()
        f1_scores.append(2 * precision * recall / (precision + recall).clamp(min=1e-8))
        recall_by_class[LABELS[label]] = round(recall.item(), 4)

    wrong = preds != golds
    confused_with, counts = torch.unique(preds[wrong], return_counts=True)
    return {
        "accuracy": (~wrong).float().mean().item(),
        "macro_f1": torch.stack(f1_scores).mean().item(),
        "within_one_star": ((preds - golds).abs() <= 1).float().mean().item(),
        "recall_by_class": recall_by_class,
        "most_predicted_when_wrong": LABELS[confused_with[counts.argmax()].item()] if counts.numel() else None,
    }


@torch.no_grad()
def evaluate(model: torch.nn.Module, loader, device: str = "cuda") -> dict:
    model.eval()
    preds, golds = [], []
    for batch in loader:
        batch = {key: value.to(device, non_blocking=True) for key, value in batch.items()}
        with torch.cuda.amp.autocast(dtype=torch.float16):
            logits = model(**batch).logits
        preds.append(logits.argmax(dim=-1))
        golds.append(batch["labels"])
    model.train()
    return compute_eval_metrics(torch.cat(preds), torch.cat(golds))
