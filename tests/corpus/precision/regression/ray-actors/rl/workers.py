import ray
import torch
from transformers import AutoModelForCausalLM


@ray.remote(num_gpus=1)
class PolicyWorker:
    def __init__(self, rank):
        self.rank = rank

    def init_model(self, path):
        torch.cuda.set_device(self.rank)
        self.model = AutoModelForCausalLM.from_pretrained(path, attn_implementation="flash_attention_2")
        self.optimizer = torch.optim.AdamW(self.model.parameters())

    def train_step(self, batch):
        loss = self.model(**batch).loss
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    def sync_weights(self, use_cuda_ipc):
        if not use_cuda_ipc:
            torch.cuda.synchronize()



from rl.base import RayProcess  # noqa: E402


@ray.remote(num_gpus=1)
class RewardWorker(RayProcess):
    def __init__(self, path):
        self.model = AutoModelForCausalLM.from_pretrained(path)

    def score(self, batch):
        return self.model(**batch).logits.mean()
