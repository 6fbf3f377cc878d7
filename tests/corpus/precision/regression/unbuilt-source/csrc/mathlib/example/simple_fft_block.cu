// Example program shipped with a header-only FFT library: built by its own Makefile, not by setup.py.
#include <cstdio>

#include "block_io.cuh"

__global__ void simple_block_fft(float* data) {
  int i = threadIdx.x;
  data[i] = load_twiddle(data, i);
}

int main() {
  float* data;
  cudaMalloc(&data, 64 * sizeof(float));
  simple_block_fft<<<1, 64>>>(data);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
