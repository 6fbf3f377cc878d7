import torch


def backward(loss, scaler, optimizer):
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()


def train_captioner(model, batches, optimizer, scaler, total_steps):
    for step in range(total_steps):
        images, tokens = next(batches)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(images.cuda(), tokens.cuda())
        backward(loss, scaler, optimizer)
        print(step, loss.item())
