"""A LoRA trainer for a diffusion transformer that reports peak memory where CUDA has it."""
import time

import torch


def train_lora(transformer, loader, optimizer, cfg, on_event):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    peak_gb = 0.0
    started = time.time()
    for step, batch in enumerate(loader):
        latents = batch["latents"].to(device)
        loss = transformer(latents).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        done = step + 1
        if done % cfg.log_every == 0 or done == cfg.train_steps:
            if device == "cuda":
                peak_gb = round(torch.cuda.max_memory_allocated() / 1e9, 2)
            on_event({"step": done, "loss": float(loss), "peak_memory_gb": peak_gb or None})
        if done % cfg.log_every == 0:
            if device == "cuda":
                reserved_gb = torch.cuda.memory_reserved() / 1e9
            on_event({"reserved": reserved_gb, "elapsed": time.time() - started})
