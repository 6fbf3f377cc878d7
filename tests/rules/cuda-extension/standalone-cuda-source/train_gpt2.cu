// expect: cuda-extension.standalone-cuda-source
// A from-scratch CUDA trainer, compiled with `make train_gpt2cu`; the PyTorch script beside it is
// the reference implementation and never loads this file.
#include <cuda_runtime.h>

__global__ void encoder_forward_kernel(float* out, const int* inp, const float* wte, int N) {}

int main(int argc, char** argv) { return 0; }
