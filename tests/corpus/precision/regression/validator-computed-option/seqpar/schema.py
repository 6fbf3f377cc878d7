from enum import Enum

from pydantic import BaseModel, Field, model_validator


class RingFn(str, Enum):
    VARLEN = "varlen"
    BATCH = "batch"


class ParallelConfig(BaseModel):
    context_parallel_size: int = Field(default=1)
    sample_packing: bool = False
    ring_fn: RingFn | None = Field(default=None)
    loss_kind: str | None = None
    fused_loss: bool = False

    @model_validator(mode="after")
    def pick_ring_fn(self):
        if self.context_parallel_size == 1:
            return self
        if self.ring_fn is None:
            # Every context-parallel run gets one: the declared None is never what it sees.
            self.ring_fn = (
                RingFn.VARLEN
                if self.sample_packing
                else RingFn.BATCH
            )
        return self

    @model_validator(mode="after")
    def pick_loss(self):
        if self.loss_kind is None:
            self.loss_kind = "plain" if self.fused_loss else "chunked"
        return self
