#include <cuda_fp16.h>
__global__ void gemv_kernel(const half* a, const half* x, half* y, int n) {
    int row = blockIdx.x;
    float acc = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += __half2float(a[row * n + i]) * __half2float(x[i]);
    atomicAdd(reinterpret_cast<float*>(y) + row, acc);
}
