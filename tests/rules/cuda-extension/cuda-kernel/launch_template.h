// Kernel definitions shared by the per-head-dim instantiations (a header, not a .cuh).
#pragma once

// expect: cuda-extension.cuda-kernel
#define DEFINE_FUSED_KERNEL(kernelName, ...) template <typename Traits, __VA_ARGS__> __global__ void kernelName(const typename Traits::Params params)

// ok: cuda-extension.cuda-kernel
template <typename Traits> void run_fused(const typename Traits::Params& params, cudaStream_t stream);
