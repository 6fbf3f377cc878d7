import inspect
import json
from pathlib import Path


def instantiate_bnb_optimizer(optimizer, model_parameters):
    if isinstance(optimizer, str) and "AdamW" not in optimizer:
        raise ValueError("The chosen quantization format only supports the AdamW optimizer.")
    import bitsandbytes as bnb

    return bnb.optim.PagedAdamW(model_parameters)


def save_hyperparameters(function, out_dir: Path) -> None:
    """Records the arguments `function` accepts next to a checkpoint (it is never called)."""
    names = list(inspect.signature(function).parameters)
    (out_dir / "hyperparameters.json").write_text(json.dumps(names))
