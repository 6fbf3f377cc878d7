import torch
import torch.distributed as dist


def setup(rank):
    # expect: cuda-api.cuda-hard-gate
    assert torch.cuda.is_available(), "this trainer needs a GPU"
    # expect: cuda-api.cuda-hard-gate
    if not torch.cuda.is_available():
        raise RuntimeError("CUDA is required")
    torch.cuda.set_device(rank)


def pick_backend():
    # expect: cuda-api.cuda-hard-gate
    if torch.cuda.is_available():
        return "nccl"
    else:
        raise NotImplementedError("only CUDA is supported")


def portable_device():
    # ok: cuda-api.cuda-hard-gate
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def check_shapes(x):
    # ok: cuda-api.cuda-hard-gate
    assert x.dim() == 3, "expected (batch, seq, dim)"
    # ok: cuda-api.cuda-hard-gate
    if not dist.is_initialized():
        raise RuntimeError("call init first")


class FlashSelfAttention(torch.nn.Module):
    def forward(self, qkv):
        # ok: cuda-api.cuda-hard-gate
        assert qkv.dtype in [torch.float16, torch.bfloat16]
        # expect: cuda-api.cuda-hard-gate
        assert qkv.is_cuda
        return qkv.sum(dim=2)


def fused_cross_entropy(logits, labels):
    # expect: cuda-api.cuda-hard-gate
    assert logits.is_cuda and labels.is_cuda, "Only support CUDA tensors"
    # ok: cuda-api.cuda-hard-gate
    assert not logits.is_cuda, "this path is the CPU reference"
    return torch.nn.functional.cross_entropy(logits, labels)


class _DeformConv(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad_output):
        # expect: cuda-api.cuda-hard-gate
        if not grad_output.is_cuda:
            raise NotImplementedError("Deformable Conv is not supported on CPUs!")
        else:
            return grad_output * 2


def rotary(x, cos, sin):
    # ok: cuda-api.cuda-hard-gate
    if x.is_cuda:
        return x * cos + x.flip(-1) * sin
    else:
        return torch.view_as_real(x) * cos


def amp_main(args):
    # expect: cuda-api.cuda-hard-gate
    assert torch.backends.cudnn.enabled, "Amp requires cudnn backend to be enabled."
    # ok: cuda-api.cuda-hard-gate
    if torch.backends.cudnn.enabled:
        torch.backends.cudnn.benchmark = True


def check_cudnn_version_and_warn(option, required):
    return torch.backends.cudnn.is_available() and torch.backends.cudnn.version() >= required


# expect: cuda-api.cuda-hard-gate
assert check_cudnn_version_and_warn(__name__, 8400)
# ok: cuda-api.cuda-hard-gate
assert check_shapes is not None


def wrap_model(model, args):
    # Without CUDA the first branch runs and the model stays on the CPU; the else raises for the elif chain's
    # own reason (only DistributedDataParallel is supported), not for a missing GPU.
    # ok: cuda-api.cuda-hard-gate
    if not torch.cuda.is_available():
        print("using CPU, this will be slow")
    elif args.distributed:
        model = torch.nn.parallel.DistributedDataParallel(model.cuda())
    else:
        raise NotImplementedError("Only DistributedDataParallel is supported.")
    return model
