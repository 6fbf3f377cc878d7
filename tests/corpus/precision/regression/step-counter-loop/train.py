"""Several students distilled in one step loop: the loop over the students steps each optimizer through a helper."""
import torch


def backward(loss, scaler, optimizer):
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


def train(students, teacher, batches, total_steps, log_every=50):
    optimizers = [torch.optim.AdamW(s.parameters(), lr=1e-4) for s in students]
    scalers = [torch.cuda.amp.GradScaler() for _ in students]
    for step in range(total_steps):
        images = next(batches).cuda(non_blocking=True)
        with torch.no_grad():
            target = teacher(images)
        for student, optimizer, scaler in zip(students, optimizers, scalers):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(student(images), target)
            backward(loss, scaler, optimizer)
        if (step + 1) % log_every == 0:
            print(step, loss.item())
        drift = (students[0].weight - students[-1].weight).abs().max().item()
        print(drift)


if __name__ == "__main__":
    teacher = torch.nn.Linear(256, 256).cuda().eval()
    students = [torch.nn.Linear(256, 256).cuda() for _ in range(2)]
    train(students, teacher, iter(torch.load("images.pt", map_location="cpu")), total_steps=1000)
