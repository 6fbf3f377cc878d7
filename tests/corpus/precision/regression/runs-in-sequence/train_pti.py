"""Pivotal tuning: textual inversion first, then LoRA tuning, with a report between the two runs."""
import torch

from lora_tools import inspect_lora


def train_inversion(text_encoder, unet, dataloader, optimizer, steps):
    for step, batch in zip(range(steps), dataloader):
        loss = unet(text_encoder(batch["input_ids"]), batch["latents"]).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def perform_tuning(text_encoder, unet, dataloader, optimizer, steps):
    for step, batch in zip(range(steps), dataloader):
        loss = unet(text_encoder(batch["input_ids"]), batch["latents"]).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print("step", step, "loss", loss.detach().item())


def train(text_encoder, unet, dataloader, steps=1000):
    ti_optimizer = torch.optim.AdamW(text_encoder.get_input_embeddings().parameters(), lr=5e-4)
    train_inversion(text_encoder, unet, dataloader, ti_optimizer, steps)
    print("PTI: before tuning", inspect_lora(unet))
    lora_optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4)
    perform_tuning(text_encoder, unet, dataloader, lora_optimizer, steps)


if __name__ == "__main__":
    from models import load_models

    text_encoder, unet, dataloader = load_models()
    train(text_encoder, unet, dataloader)
