"""SFT configuration."""
from trl import SFTConfig, SFTTrainer


def sft_config(out, packed):
    if packed:
        # expect: dynamic-shape.padding-free-packing
        return SFTConfig(output_dir=out, packing=True, padding_free=True, max_length=4096)
    # ok: dynamic-shape.padding-free-packing
    return SFTConfig(output_dir=out, packing=True, padding_free=False, max_length=4096)
