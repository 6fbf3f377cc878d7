// Rotary position embedding, NeoX layout (pairs i and i + head_dim/2), one thread per pair.
// x: [batch, seq, heads, head_dim] fp32/fp16/bf16; cos, sin: [max_seq, head_dim/2] fp32.
// inverse=true rotates by -theta, which is the backward of the forward rotation.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void rope_kernel(const scalar_t* __restrict__ x, const float* __restrict__ cos,
                            const float* __restrict__ sin, scalar_t* __restrict__ out, int64_t seq_len,
                            int64_t heads, int64_t half, float sign, int64_t total) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int64_t i = idx % half;
  const int64_t row = idx / half;  // (b * seq_len + t) * heads + h
  const int64_t t = (row / heads) % seq_len;
  const float c = cos[t * half + i];
  const float s = sign * sin[t * half + i];
  const int64_t base = row * 2 * half;
  const float x1 = static_cast<float>(x[base + i]);
  const float x2 = static_cast<float>(x[base + half + i]);
  out[base + i] = static_cast<scalar_t>(x1 * c - x2 * s);
  out[base + half + i] = static_cast<scalar_t>(x2 * c + x1 * s);
}

torch::Tensor rope_apply(torch::Tensor x, torch::Tensor cos, torch::Tensor sin, bool inverse) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 4, "x must be [batch, seq, heads, head_dim]");
  TORCH_CHECK(cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat, "cos/sin must be fp32");
  x = x.contiguous();
  cos = cos.contiguous();
  sin = sin.contiguous();
  const int64_t seq_len = x.size(1);
  const int64_t heads = x.size(2);
  const int64_t half = x.size(3) / 2;
  TORCH_CHECK(cos.size(0) >= seq_len && cos.size(1) == half, "cos/sin table too short or wrong width");

  auto out = torch::empty_like(x);
  const int64_t total = x.numel() / 2;
  if (total == 0) return out;
  const int threads = 256;
  const int64_t blocks = (total + threads - 1) / threads;
  const float sign = inverse ? -1.0f : 1.0f;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "rope_apply", [&] {
    rope_kernel<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), cos.data_ptr<float>(), sin.data_ptr<float>(), out.data_ptr<scalar_t>(), seq_len,
        heads, half, sign, total);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("apply", &rope_apply, "Apply rotary embedding (CUDA)", py::arg("x"), py::arg("cos"), py::arg("sin"),
        py::arg("inverse") = false);
}
