from tuner.trainers.distill.fused import fused_kl


class DistillStrategy:
    @staticmethod
    def loss(student_logits, teacher_logits):
        return fused_kl(student_logits, teacher_logits)
