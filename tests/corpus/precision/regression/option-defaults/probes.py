# Availability probes that end the function early: what follows runs only where the library is there.
import importlib.util
from functools import lru_cache


@lru_cache
def is_te_installed_available() -> bool:
    return importlib.util.find_spec("transformer_engine") is not None


def te_has_pytorch() -> bool:
    if not is_te_installed_available():
        return False
    import transformer_engine

    return hasattr(transformer_engine, "pytorch")


def require_te() -> None:
    # Control: raising is a hard requirement, not a fallback.
    if not is_te_installed_available():
        raise ImportError("this recipe needs transformer_engine")
    import transformer_engine

    print(transformer_engine.__version__)


def deepspeed_config():
    return None


def gathered_copy(param):
    # ZeRO-3 shards parameters: gather only when the run uses DeepSpeed.
    if deepspeed_config() is not None:
        import deepspeed

        with deepspeed.zero.GatheredParameters([param]):
            return param.detach().clone()
    return param.detach().clone()
