"""Two pipeline stages on two workers; the master drives them over RPC and trains with a distributed optimizer."""
import threading

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
from torch import nn
from torch.distributed.optim import DistributedOptimizer


class FeatureStage(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device
        self._lock = threading.Lock()
        self.body = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1)).to(device)

    def forward(self, x_rref):
        x = x_rref.to_here().to(self.device)
        with self._lock:
            out = self.body(x)
        return out.cpu()


class HeadStage(nn.Module):
    def __init__(self, device, classes):
        super().__init__()
        self.device = device
        self.fc = nn.Linear(64, classes).to(device)

    def forward(self, x_rref):
        x = x_rref.to_here().to(self.device)
        hidden = torch.flatten(x, 1)
        scores = self.fc(hidden).cpu()
        return scores.softmax(-1)


def run_master(batches, classes):
    stage1 = rpc.remote("worker1", FeatureStage, args=("cuda:0",))
    stage2 = rpc.remote("worker2", HeadStage, args=("cuda:1", classes))
    params = stage1.remote().parameter_rrefs().to_here() + stage2.remote().parameter_rrefs().to_here()
    opt = DistributedOptimizer(torch.optim.SGD, params, lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    for inputs, labels in batches:
        with dist_autograd.context() as context_id:
            y = stage2.rpc_sync().forward(stage1.remote().forward(rpc.RRef(inputs)))
            loss = loss_fn(y, labels)
            dist_autograd.backward(context_id, [loss])
            opt.step(context_id)
