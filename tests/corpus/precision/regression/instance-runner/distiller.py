import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, params, student, teacher, loader):
        self.params = params
        self.student = student
        self.teacher = teacher
        self.loader = loader
        self.optimizer = torch.optim.AdamW(student.parameters(), lr=params.lr)

    def prepare_batch(self, token_ids, lengths):
        keep = lengths.max().item()
        return token_ids[:, :keep]

    def optimize(self, loss):
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train(self):
        for _ in range(self.params.n_epoch):
            for token_ids, lengths in self.loader:
                token_ids = token_ids.to(f"cuda:{self.params.local_rank}")
                inputs = self.prepare_batch(token_ids, lengths)
                with torch.no_grad():
                    t_logits = self.teacher(inputs)
                s_logits = self.student(inputs)
                loss = F.kl_div(F.log_softmax(s_logits, -1), F.softmax(t_logits, -1), reduction="batchmean")
                self.optimize(loss)
