"""DPO fine-tune; bitsandbytes only for QLoRA or a paged optimizer, both off by default."""
import torch

import cfg


def main(args: cfg.DPOExperimentConfig):
    model = torch.nn.Linear(4, 4)
    if args.use_qlora or args.dpo_use_paged_optimizer:
        from bitsandbytes.optim import AdamW

        optimizer = AdamW(model.parameters(), lr=args.lr)
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    if args.use_qlora or args.pin_batches:
        model = model.cuda()
    for _ in range(3):
        model(torch.randn(2, 4)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main(cfg.DPOExperimentConfig())
