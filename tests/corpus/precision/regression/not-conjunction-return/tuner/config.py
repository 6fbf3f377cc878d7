from pydantic import BaseModel, Field


class TrainConfig(BaseModel):
    tiled_mlp: bool | None = Field(default=None, json_schema_extra={"description": "tile the MLP for long context"})
    use_moe_kernels: bool | None = Field(default=None)
    gradient_checkpointing: bool = True
    sample_packing: bool = True
