from pydantic import BaseModel, Field


class TrainConfig(BaseModel):
    context_parallel_size: int | None = Field(default=None, description="split sequences across ranks")
    tensor_parallel_size: int = Field(default=2, description="shard layers across ranks")
