import torch


def compute_data_metrics(batch):
    scores = batch["scores"]
    valid = scores[batch["mask"]]
    return {
        "score/mean": torch.mean(valid).item(),
        "score/max": torch.max(valid).item(),
        "response/length": batch["mask"].sum(-1).float().mean().item(),
    }
