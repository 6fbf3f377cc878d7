import megablocks.ops as ops
import torch


class DroplessMoE(torch.nn.Module):
    def __init__(self, neox_args):
        super().__init__()
        self.router = torch.nn.Linear(neox_args.hidden_size, neox_args.moe_num_experts)

    def forward(self, x):
        return ops.gather(x, self.router(x).argmax(-1), 1)
