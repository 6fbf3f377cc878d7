import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, params, student, teacher):
        self.params = params
        self.student = student
        self.teacher = teacher
        self.alpha_ce = params.alpha_ce
        self.alpha_mse = params.alpha_mse
        self.optimizer = torch.optim.AdamW(student.parameters(), lr=params.lr)

    def step(self, batch):
        s_logits = self.student(batch)
        with torch.no_grad():
            t_logits = self.teacher(batch)
        loss_ce = F.kl_div(F.log_softmax(s_logits, -1), F.softmax(t_logits, -1), reduction="batchmean")
        loss = self.alpha_ce * loss_ce
        if self.alpha_mse > 0.0:
            loss_mse = F.mse_loss(s_logits, t_logits)
            loss = loss + self.alpha_mse * loss_mse
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        if self.alpha_ce > 0.0:
            self.last_loss_ce = loss_ce.item()
        if self.alpha_mse > 0.0:
            self.last_loss_mse = loss_mse.item()

    def train(self, loader):
        for batch in loader:
            self.step(batch)
