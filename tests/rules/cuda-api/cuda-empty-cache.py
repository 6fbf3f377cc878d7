"""Memory housekeeping between evaluation and training in a fine-tuning loop."""
import gc

import torch


def evaluate_then_train(model, eval_loader, train_step):
    model.eval()
    with torch.no_grad():
        for batch in eval_loader:
            model(**batch)
    gc.collect()
    # expect: cuda-api.cuda-empty-cache
    torch.cuda.empty_cache()
    model.train()
    # ok: cuda-api.cuda-empty-cache
    torch.cuda.synchronize()
    return train_step(model)
