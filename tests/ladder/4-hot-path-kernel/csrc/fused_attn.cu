#include <torch/extension.h>

__global__ void fused_attn_kernel(const float* q, const float* k, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = q[i] * k[i] + v[i];
}

torch::Tensor fused_attn(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
  auto out = torch::empty_like(q);
  int n = q.numel();
  fused_attn_kernel<<<(n + 255) / 256, 256>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                              out.data_ptr<float>(), n);
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fused_attn", &fused_attn); }
