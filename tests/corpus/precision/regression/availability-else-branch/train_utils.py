"""A fine-tuning loop that supports Intel XPUs and CUDA (llama-cookbook's train_utils shape)."""
import torch
from accelerate.utils import is_xpu_available

try:
    import apex
except ImportError:
    apex = None


def move_batch(batch):
    for key in batch.keys():
        if is_xpu_available():
            batch[key] = batch[key].to("xpu:0")
        else:
            batch[key] = batch[key].to("cuda:0")
    return batch


def fused_norm(x, weight):
    if apex is not None:
        return apex.normalization.fused_layer_norm_affine(x, weight, None, x.shape[-1:])
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight)


def train(model, loader, optimizer):
    for batch in loader:
        batch = move_batch(batch)
        if not is_xpu_available():
            torch.cuda.synchronize()
        else:
            torch.cuda.nvtx.range_push("step")
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    train(model, [], optimizer)
