"""One-off initialisation helpers a user calls before fine-tuning starts."""
import torch


class RunningStats:
    def update(self, acts):
        acts = acts.to(torch.float64)
        self.mean = acts.mean(dim=0)
        return self.mean


def spectral_init(model, loader, rank=8):
    stats = RunningStats()
    for batch in loader:
        hidden = model(**batch).hidden_states[-1]
        stats.update(hidden.flatten(0, 1))
    if torch.isnan(stats.mean).any():
        raise RuntimeError("initialisation diverged")
    return {"rank": rank, "mean": stats.mean}


def pick_target_layers(model, top=4):
    scores = {}
    for name, module in model.named_modules():
        if hasattr(module, "weight") and module.weight.dim() == 2:
            scores[name] = torch.linalg.svdvals(module.weight).max() / torch.linalg.svdvals(module.weight).min()
    return sorted(scores, key=scores.get)[:top]
