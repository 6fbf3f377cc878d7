"""Evaluation harness with hard-coded devices."""
import argparse

import torch

# ok: cuda-api.cuda-device-literal
cuda_available = False


def parse_args():
    parser = argparse.ArgumentParser()
    # expect: cuda-api.cuda-device-literal
    parser.add_argument("--device", default="cuda")
    return parser.parse_args()


def load(model, rank):
    # expect: cuda-api.cuda-device-literal
    device = torch.device("cuda", rank)
    # expect: cuda-api.cuda-device-literal
    model.to("cuda:0")
    # expect: cuda-api.cuda-device-literal
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        return model


def pick_device():
    # ok: cuda-api.cuda-device-literal
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(device)


def describe(device):
    # ok: cuda-api.cuda-device-literal
    if device.type == "cuda":
        return "gpu"
    return "host"


from enum import Enum


class DeviceType(str, Enum):
    # An enum member names a device to compare against; it puts nothing on a device.
    # ok: cuda-api.cuda-device-literal
    CUDA = "cuda"
    CPU = "cpu"


def setup_ddp(local_rank, backend_name):
    # A device type with a computed index is still a CUDA device.
    # expect: cuda-api.cuda-device-literal
    device = f"cuda:{local_rank}"
    # expect: cuda-api.cuda-device-literal
    target = torch.device(f"cuda:{torch.cuda.current_device()}")
    # ok: cuda-api.cuda-device-literal
    name = f"{backend_name}:{local_rank}"
    # ok: cuda-api.cuda-device-literal
    tag = f"cuda:{local_rank}-{backend_name}"
    return device, target, name, tag


def out_of_memory_types():
    # An attribute looked up by name on torch puts nothing on a device.
    # ok: cuda-api.cuda-device-literal
    cuda_oom = getattr(getattr(torch, "cuda", None), "OutOfMemoryError", None)
    # ok: cuda-api.cuda-device-literal
    has_cuda = hasattr(torch, "cuda")
    return cuda_oom, has_cuda


def safe_device(try_device: str):
    # A string method testing the device a user asked for names no device of its own.
    # ok: cuda-api.cuda-device-literal
    if try_device.startswith("cuda"):
        return torch.device(try_device)
    # ok: cuda-api.cuda-device-literal
    if str(try_device).find("cuda:") >= 0:
        return torch.device(try_device)
    return torch.device("cpu")


# A training function a CLI builds from its signature (`fire.Fire(train)`): its default is the run's device.
# expect: cuda-api.cuda-device-literal
def train_from_signature(model_name: str, steps: int = 100, device: str = "cuda:0"):
    model = torch.nn.Linear(8, 8).to(device)
    return model, steps, model_name


# Every call passes the device (minimind's `init_model(..., device=args.device)`): the default never runs.
# ok: cuda-api.cuda-device-literal
def init_model(hidden, device="cuda"):
    return torch.nn.Linear(hidden, hidden).to(device)


def build_everything(args):
    first = init_model(args.hidden, device=args.device)
    second = init_model(args.hidden, args.device)
    return first, second


# A kernel selector, not a device: stylegan3's `impl='cuda'` falls back to the reference code elsewhere.
# ok: cuda-api.cuda-device-literal
def upsample2d(x, f, up=2, impl="cuda"):
    return x if impl == "ref" else x.repeat_interleave(up, dim=-1)


# A wrapper forwards its own arguments (nanochat's data loaders): its callers decide, and they pass the device.
# ok: cuda-api.cuda-device-literal
def loader_with_state(tokenizer, batch_size, device="cuda"):
    yield torch.zeros(batch_size, 8, dtype=torch.long).to(device), tokenizer


def loader(*args, **kwargs):
    for batch, _ in loader_with_state(*args, **kwargs):
        yield batch


def build_loaders(tokenizer, args):
    return loader(tokenizer, args.batch_size, device=args.device), loader_with_state(tokenizer, 4, args.device)
