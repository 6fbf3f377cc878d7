import torch
import torch.distributed as dist


def slice_for_ring(sequences: torch.Tensor, ring_attn_group):
    """Each rank keeps its slice of the packed sequence when ring attention is on."""
    if ring_attn_group is not None:
        rank = dist.get_rank(group=ring_attn_group)
        torch.cuda.set_device(rank)
        world = dist.get_world_size(group=ring_attn_group)
        sequences = sequences.chunk(world, dim=1)[rank]
    return sequences


class PackedActor(torch.nn.Module):
    def __init__(self, dim: int, ring_attn_group=None):
        super().__init__()
        self.body = torch.nn.Linear(dim, dim)
        self.ring_attn_group = ring_attn_group

    def forward(self, sequences: torch.Tensor) -> torch.Tensor:
        sequences = slice_for_ring(sequences, self.ring_attn_group)
        return self.body(sequences)
