"""Custom kernels for the augmentation pipeline, compiled with CuPy."""
import cupy as cp
import numpy as np

# expect: cuda-extension.cupy-raw-kernel
_flip = cp.RawKernel(r"""
extern "C" __global__ void flip(const float* x, float* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] = x[n - 1 - i];
}
""", "flip")

# expect: cuda-extension.cupy-raw-kernel
squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")


def normalise(batch):
    # ok: cuda-extension.cupy-raw-kernel
    mean = cp.mean(batch, axis=0)
    # ok: cuda-extension.cupy-raw-kernel
    return np.asarray(cp.asnumpy(batch - mean))
