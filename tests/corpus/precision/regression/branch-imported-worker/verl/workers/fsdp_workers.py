import torch
import torch.distributed as dist


class Worker:
    pass


class ActorWorker(Worker):
    def __init__(self, config):
        dist.init_process_group(backend="nccl")
        self.model = torch.nn.Linear(8, 8)
        self.opt = torch.optim.Adam(self.model.parameters())

    def update_actor(self, batch):
        loss = self.model(batch).sum()
        loss.backward()
        self.opt.step()
        return loss.detach()


class RewardModelWorker(Worker):
    def __init__(self, config):
        dist.init_process_group(backend="nccl")
        self.model = torch.nn.Linear(8, 1)

    def compute_rm_score(self, batch):
        with torch.no_grad():
            from flash_attn.bert_padding import unpad_input
            return self.model(batch.cuda())
