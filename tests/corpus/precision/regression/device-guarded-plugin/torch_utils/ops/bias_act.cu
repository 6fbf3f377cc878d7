#include <cuda_runtime.h>
template <class T> __global__ void bias_act_kernel(T* y, const T* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0 ? x[i] : 0;
}
