"""Custom kernels used in the model's forward pass: fused RMSNorm (inline CUDA), rotary embedding
(the fused_rope_cuda extension from setup.py) and SwiGLU (Triton)."""
from __future__ import annotations

import functools

import torch
import triton
import triton.language as tl
from torch.utils.cpp_extension import load_inline

import fused_rope_cuda

_RMSNORM_CPP = "std::vector<torch::Tensor> rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps);"

_RMSNORM_CUDA = r"""
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void rmsnorm_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ weight,
                               scalar_t* __restrict__ out, float* __restrict__ rstd, int64_t cols, float eps) {
  extern __shared__ float partial[];
  const scalar_t* row = x + blockIdx.x * cols;
  float acc = 0.f;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(row[c]);
    acc += v * v;
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  const float r = rsqrtf(partial[0] / cols + eps);
  if (threadIdx.x == 0) rstd[blockIdx.x] = r;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    out[blockIdx.x * cols + c] = static_cast<scalar_t>(static_cast<float>(row[c]) * r * static_cast<float>(weight[c]));
  }
}

std::vector<torch::Tensor> rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "x must be a contiguous CUDA tensor");
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  auto out = torch::empty_like(x);
  auto rstd = torch::empty({rows}, x.options().dtype(torch::kFloat));
  const int threads = 256;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "rmsnorm_forward", [&] {
    rmsnorm_kernel<scalar_t><<<rows, threads, threads * sizeof(float), at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rstd.data_ptr<float>(),
        cols, static_cast<float>(eps));
  });
  return {out, rstd};
}
"""


@functools.lru_cache(maxsize=None)
def _rmsnorm_ext():
    """Compiles the RMSNorm kernel on first use (cached under TORCH_EXTENSIONS_DIR)."""
    return load_inline(
        name="fused_rmsnorm",
        cpp_sources=[_RMSNORM_CPP],
        cuda_sources=[_RMSNORM_CUDA],
        functions=["rmsnorm_forward"],
        extra_cuda_cflags=["-O3", "--use_fast_math"],
    )


class FusedRMSNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        x = x.contiguous()
        out, rstd = _rmsnorm_ext().rmsnorm_forward(x, weight.to(x.dtype).contiguous(), eps)
        ctx.save_for_backward(x, weight, rstd)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, weight, rstd = ctx.saved_tensors
        x_hat = x.float() * rstd.view(*x.shape[:-1], 1)
        grad = grad_out.float()
        grad_weight = (grad * x_hat).reshape(-1, x.shape[-1]).sum(dim=0)
        gw = grad * weight.float()
        grad_x = rstd.view(*x.shape[:-1], 1) * (gw - x_hat * (gw * x_hat).mean(dim=-1, keepdim=True))
        return grad_x.to(x.dtype), grad_weight.to(weight.dtype), None


class RotaryFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cos, sin):
        ctx.save_for_backward(cos, sin)
        return fused_rope_cuda.apply(x, cos, sin, False)

    @staticmethod
    def backward(ctx, grad_out):
        cos, sin = ctx.saved_tensors
        return fused_rope_cuda.apply(grad_out, cos, sin, True), None, None


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
)
@triton.jit
def _swiglu_kernel(gate_ptr, up_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    gate = tl.load(gate_ptr + offsets, mask=mask).to(tl.float32)
    up = tl.load(up_ptr + offsets, mask=mask).to(tl.float32)
    out = gate * tl.sigmoid(gate) * up
    tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)


class SwiGLUFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, gate, up):
        gate, up = gate.contiguous(), up.contiguous()
        out = torch.empty_like(gate)
        n_elements = out.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
        _swiglu_kernel[grid](gate, up, out, n_elements)
        ctx.save_for_backward(gate, up)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        gate, up = ctx.saved_tensors
        g, u, grad = gate.float(), up.float(), grad_out.float()
        sig = torch.sigmoid(g)
        grad_up = grad * g * sig
        grad_gate = grad * u * sig * (1 + g * (1 - sig))
        return grad_gate.to(gate.dtype), grad_up.to(up.dtype)


def fused_rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return FusedRMSNormFn.apply(x, weight, eps)


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    return RotaryFn.apply(x, cos, sin)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return SwiGLUFn.apply(gate, up)
