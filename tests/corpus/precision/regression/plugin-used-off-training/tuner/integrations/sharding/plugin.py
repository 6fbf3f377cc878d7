import torch

from tuner.integrations.base import BasePlugin


def shard_axis(mesh_names):
    torch.cuda.synchronize()
    return "dp" if mesh_names else None


class ShardPlugin(BasePlugin):
    def pre_model_load(self, cfg):
        cfg["sharded"] = True
