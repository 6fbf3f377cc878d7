"""Fused optimizer bookkeeping with legacy typed tensors (apex style)."""
import torch


class FusedAdagrad(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2):
        super().__init__(params, dict(lr=lr))
        # expect: cuda-api.cuda-typed-tensor
        self._dummy_overflow_buf = torch.cuda.IntTensor([0])
        # ok: cuda-api.cuda-typed-tensor
        self._steps = torch.zeros(1, dtype=torch.int32)

    def init_state(self, group, g_16):
        # expect: cuda-api.cuda-typed-tensor
        group["exp_avg_sq"] = torch.cuda.FloatTensor(len(g_16), device=group["params"][0].device)
        # ok: cuda-api.cuda-typed-tensor
        group["exp_avg"] = torch.FloatTensor(len(g_16))
