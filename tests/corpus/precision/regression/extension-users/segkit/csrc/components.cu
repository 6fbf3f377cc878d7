#include <torch/extension.h>

__global__ void label_components_kernel(const unsigned char* mask, int* labels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) labels[i] = mask[i] ? i : -1;
}

torch::Tensor label_components(torch::Tensor mask) {
  auto labels = torch::empty(mask.sizes(), mask.options().dtype(torch::kInt));
  int n = mask.numel();
  label_components_kernel<<<(n + 255) / 256, 256>>>(mask.data_ptr<unsigned char>(), labels.data_ptr<int>(), n);
  return labels;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("label_components", &label_components); }
