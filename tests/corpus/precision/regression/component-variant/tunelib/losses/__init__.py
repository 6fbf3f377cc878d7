from tunelib.losses.kd import ForwardKLLoss, ReverseKLLoss, SymmetricKLLoss

__all__ = ["ForwardKLLoss", "ReverseKLLoss", "SymmetricKLLoss"]
