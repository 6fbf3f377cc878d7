import argparse
from typing import Optional

import torch


def compute_loss_on_batch(batch, model, *, amp_dtype, max_tokens_per_chunk: Optional[int], clip: Optional[float]):
    if clip is not None:
        torch.cuda.synchronize()
    if max_tokens_per_chunk is not None:
        with torch.cuda.amp.autocast(enabled=amp_dtype is not None, dtype=amp_dtype):
            return model(batch).sum()
    return model(batch).sum()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss_tokens_per_chunk", type=int, default=None)
    parser.add_argument("--clip_grad", type=float, default=1.0)
    parser.add_argument("--amp_dtype", default=None)
    args = parser.parse_args()
    model = torch.nn.Linear(8, 8)
    opt = torch.optim.Adam(model.parameters())
    for _ in range(10):
        loss = compute_loss_on_batch(torch.randn(4, 8), model, amp_dtype=args.amp_dtype,
                                     max_tokens_per_chunk=args.loss_tokens_per_chunk, clip=args.clip_grad)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
