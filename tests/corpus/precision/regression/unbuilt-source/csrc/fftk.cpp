#include <torch/extension.h>

torch::Tensor fftconv_cuda(torch::Tensor u, torch::Tensor k);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fftconv", &fftconv_cuda);
}
