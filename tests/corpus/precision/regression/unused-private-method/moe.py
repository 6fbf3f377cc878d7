import torch
from torch import nn


class MoELayer(nn.Module):
    def __init__(self, dim=512, experts=8, top_k=2):
        super().__init__()
        self.gate = nn.Linear(dim, experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(experts))
        self.top_k = top_k

    def _route(self, x):
        scores = self.gate(x).softmax(-1)
        weights, chosen = scores.topk(self.top_k, dim=-1)
        return weights, chosen

    def _hf_expert_forward_for_debug(self, x, chosen):
        out = torch.zeros_like(x)
        with torch.no_grad():
            expert_mask = nn.functional.one_hot(chosen, num_classes=len(self.experts)).permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
        for e in expert_hit:
            rows = (chosen == e[0]).any(-1)
            out = out + self.experts[int(e[0])](x) * rows.unsqueeze(-1)
        return out

    def forward(self, x):
        weights, chosen = self._route(x)
        # debug for aligning with the reference implementation
        # return self._hf_expert_forward_for_debug(x, chosen)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            mask = (chosen == e).float()
            out = out + expert(x) * (weights * mask).sum(-1, keepdim=True)
        active = out.abs().sum(-1).nonzero()
        return out, active

