// Fused scaled-masked softmax, built by setup.py as fused_softmax_cuda.
#include <cuda_fp16.h>
#include <torch/extension.h>

// A helper that runs on the device but is not a kernel:
// ok: cuda-extension.cuda-kernel
__device__ __forceinline__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

/* The launcher below used to call a __global__ helper; now it calls the templates. */
template <typename T, int WARPS>
// expect: cuda-extension.cuda-kernel
__global__ __launch_bounds__(WARPS * 32) void scaled_masked_softmax_fwd(T* out, const T* in, const uint8_t* mask,
                                                                         float scale, int cols) {
  int row = blockIdx.x;
  (void)row;
}

template <typename T>
// expect: cuda-extension.cuda-kernel
__global__ void scaled_masked_softmax_bwd(T* grad_in, const T* grad_out, const T* out, float scale, int cols) {}

// ok: cuda-extension.cuda-kernel
torch::Tensor fwd(torch::Tensor input, torch::Tensor mask, float scale) {
  const char* note = "__global__ inside a string is not a kernel";
  (void)note;
  return input;
}
