import torch
import torch.distributed as dist


class RingExchange:
    """Ring attention's key/value exchange: only the long-context recipe builds one."""

    def __init__(self, group):
        self.group = group
        self.pending = []

    def send_recv(self, tensor, peer):
        out = torch.empty_like(tensor)
        self.pending = dist.batch_isend_irecv(
            [dist.P2POp(dist.isend, tensor, peer, self.group), dist.P2POp(dist.irecv, out, peer, self.group)]
        )
        return out

    def wait(self):
        for req in self.pending:
            req.wait()
        torch.cuda.synchronize()


def ring_attention(q, k, v, group):
    comm = RingExchange(group)
    k = comm.send_recv(k, peer=0)
    comm.wait()
    return torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v


class StepTimer:
    def __init__(self):
        self.steps = 0

    def wait(self):
        self.steps += 1
        torch.cuda.synchronize()
