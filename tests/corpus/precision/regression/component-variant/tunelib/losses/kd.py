import torch
import torch.nn.functional as F


class ForwardKLLoss(torch.nn.Module):
    def forward(self, student_logits, teacher_logits):
        teacher_prob = F.softmax(teacher_logits, dim=-1)
        if torch.isinf(student_logits).any():
            student_logits = student_logits.clamp(min=-1e4)
        return -(teacher_prob * F.log_softmax(student_logits, dim=-1)).sum(-1).mean()


class ReverseKLLoss(torch.nn.Module):
    def forward(self, student_logits, teacher_logits):
        student_prob = F.softmax(student_logits, dim=-1)
        if torch.isinf(teacher_logits).any():
            teacher_logits = teacher_logits.clamp(min=-1e4)
        return (student_prob * (F.log_softmax(student_logits, -1) - F.log_softmax(teacher_logits, -1))).sum(-1).mean()


class SymmetricKLLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fkl = ForwardKLLoss()
        self.rkl = ReverseKLLoss()

    def forward(self, student_logits, teacher_logits):
        return self.fkl(student_logits, teacher_logits) + self.rkl(student_logits, teacher_logits)
