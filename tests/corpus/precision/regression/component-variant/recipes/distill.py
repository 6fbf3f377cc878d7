import torch

from tunelib.config import instantiate


def train(cfg):
    student = instantiate(cfg.model)
    teacher = instantiate(cfg.model)
    kd_loss = instantiate(cfg.kd_loss)
    optimizer = instantiate(cfg.optimizer, student.parameters())
    for batch in []:
        with torch.no_grad():
            teacher_logits = teacher(batch)
        loss = kd_loss(student(batch), teacher_logits)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
