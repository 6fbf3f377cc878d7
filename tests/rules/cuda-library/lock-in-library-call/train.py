import torch

from lib.loading import fused_norm, load_base, load_plain


def train(args, loader):
    # expect: cuda-library.lock-in-library-call
    model = load_base(args.model_name)
    # ok: cuda-library.lock-in-library-call
    reference = load_plain(args.model_name)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for batch in loader:
        # ok: cuda-library.lock-in-library-call
        hidden = fused_norm(batch["embeds"], reference.norm.weight)
        loss = model(inputs_embeds=hidden, labels=batch["labels"]).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
