import torch


def moe_forward(x, router):
    from kernels.moe_triton import grouped_gemm

    return grouped_gemm(x, router(x).argmax(-1))


def patch_model(model):
    model.moe_forward = moe_forward
    torch.cuda.synchronize()
