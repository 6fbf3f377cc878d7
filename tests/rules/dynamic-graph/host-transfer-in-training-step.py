"""Diffusion training loop that logs per-timestep losses (improved-diffusion style) and decodes samples."""
import torch


def log_loss_dict(logger, diffusion, ts, losses):
    for key, values in losses.items():
        # expect: dynamic-graph.host-transfer-in-training-step
        for sub_t, sub_loss in zip(ts.cpu().numpy(), values.detach().cpu().numpy()):
            logger.logkv_mean(f"{key}_q{int(4 * sub_t / diffusion.num_timesteps)}", sub_loss)


def save_checkpoint(model, path):
    # ok: dynamic-graph.host-transfer-in-training-step
    state = {k: v.cpu() for k, v in model.state_dict().items()}
    torch.save(state, path)


def train(model, diffusion, optimizer, loader, tokenizer, logger, steps, log_every=100, save_every=1000):
    for step, (batch, prompts) in enumerate(loader):
        ts = torch.randint(0, diffusion.num_timesteps, (batch.shape[0],), device=batch.device)
        losses = diffusion.training_losses(model, batch, ts)
        loss = losses["loss"].mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log_loss_dict(logger, diffusion, ts, losses)
        # expect: dynamic-graph.host-transfer-in-training-step
        logger.logkv("timesteps", ts.tolist())
        # ok: dynamic-graph.host-transfer-in-training-step
        logger.logkv("loss_now", loss.detach().cpu().item())
        # ok: dynamic-graph.host-transfer-in-training-step
        prompt_ids = tokenizer(prompts, return_tensors="pt")["input_ids"].flatten().tolist()
        # ok: dynamic-graph.host-transfer-in-training-step
        lengths = torch.tensor([len(p) for p in prompts]).tolist()
        logger.logkv("prompt_tokens", len(prompt_ids) + sum(lengths))
        if step % log_every == 0:
            # ok: dynamic-graph.host-transfer-in-training-step
            logger.logkv("loss", loss.detach().cpu().numpy())
        if step % save_every == 0:
            save_checkpoint(model, f"ckpt_{step}.pt")
