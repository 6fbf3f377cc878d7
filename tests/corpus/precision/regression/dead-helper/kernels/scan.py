import torch
import triton
import triton.language as tl


def _prune_configs(configs, named_args, **kwargs):
    major, _ = torch.cuda.get_device_capability()
    return configs if major < 10 else configs[:1]


@triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"], prune_configs_by={"early_config_prune": _prune_configs})
@triton.jit
def _scan_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _scan_fwd(x):
    out = torch.empty_like(x)
    _scan_kernel[(triton.cdiv(x.numel(), 64),)](x, out, x.numel())
    return out


def _scan_fwd_wip(x):
    out = torch.empty_like(x)
    with torch.cuda.device(x.device.index):
        _scan_kernel[(triton.cdiv(x.numel(), 64),)](x, out, x.numel())
    return out


def scan(x):
    with torch.cuda.device(x.device.index):
        return _scan_fwd(x)
