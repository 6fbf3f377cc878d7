#include <cuda_runtime.h>

__global__ void scatter_add_rows(const float* src, const long* index, float* out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) {
    atomicAdd(&out[index[i / cols] * cols + i % cols], src[i]);
  }
}
