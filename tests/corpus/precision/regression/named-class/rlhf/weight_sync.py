import torch


class WeightSyncExtension:
    """Loaded by the rollout engine by name; the trainer pushes new weights through it."""

    def init_group(self, master_address, rank_offset, world_size):
        self._rank = torch.distributed.get_rank() + rank_offset
        self._world = world_size

    def receive_weight(self, name, dtype, shape):
        weight = torch.empty(shape, dtype=dtype, device="cuda")
        with torch.cuda.stream(torch.cuda.Stream()):
            torch.distributed.broadcast(weight, 0)
        self.model_runner.model.load_weights(weights=[(name, weight)])
        del weight
