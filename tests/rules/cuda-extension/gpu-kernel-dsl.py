"""GEMM epilogues written in CuTe DSL, TileLang and Numba CUDA."""
import functools

import cutlass
import cutlass.cute as cute
import tilelang
import tilelang.language as T
from numba import cuda
import numba


# expect: cuda-extension.gpu-kernel-dsl
@cute.kernel
def scale_kernel(gA: cute.Tensor, gB: cute.Tensor, alpha: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    gB[tidx] = gA[tidx] * alpha


# expect: cuda-extension.gpu-kernel-dsl
@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M=128, block_N=128, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        pass

    return main


# expect: cuda-extension.gpu-kernel-dsl
@cuda.jit
def histogram(x, bins):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(bins, x[i], 1)


# ok: cuda-extension.gpu-kernel-dsl
@numba.njit(cache=True)
def cpu_histogram(x, bins):
    for v in x:
        bins[v] += 1


# ok: cuda-extension.gpu-kernel-dsl
@functools.lru_cache(maxsize=8)
def compiled_matmul(M, N, K):
    return matmul(M, N, K)
