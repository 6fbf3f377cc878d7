"""Batches for preference training; rollouts for the online variant come from vLLM."""
import torch
import vllm


def preference_batches(dataset, batch_size: int):
    for start in range(0, len(dataset), batch_size):
        rows = dataset[start : start + batch_size]
        yield torch.stack([r["chosen"] for r in rows]), torch.stack([r["rejected"] for r in rows])


def rollout_engine(model_name: str):
    return vllm.LLM(model=model_name)
