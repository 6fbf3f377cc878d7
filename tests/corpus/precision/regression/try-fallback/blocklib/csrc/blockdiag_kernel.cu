#include <cuda_runtime.h>

__global__ void block_diag_fill(const float* blocks, float* out, int n, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * size * size) {
    int b = i / (size * size);
    int r = (i / size) % size;
    int c = i % size;
    out[(b * size + r) * n * size + b * size + c] = blocks[i];
  }
}
