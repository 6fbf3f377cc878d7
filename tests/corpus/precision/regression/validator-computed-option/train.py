import torch

from seqpar.ring import register_ring
from seqpar.schema import ParallelConfig


def compute_loss(cfg, logits, labels):
    if cfg.loss_kind == "chunked":
        # The default after validation: this runs every step.
        n = (labels != -100).sum().item()
        return torch.nn.functional.cross_entropy(logits, labels, reduction="sum") / n
    return torch.nn.functional.cross_entropy(logits, labels)


def main():
    cfg = ParallelConfig()
    if cfg.context_parallel_size > 1:
        attn = register_ring(ring_fn=cfg.ring_fn)
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        x = torch.randn(4, 16)
        labels = torch.randint(0, 16, (4,))
        loss = compute_loss(cfg, model(x), labels)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
