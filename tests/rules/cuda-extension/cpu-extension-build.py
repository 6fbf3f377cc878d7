"""Host-side helpers compiled with cpp_extension."""
import json

from torch.utils.cpp_extension import load, load_inline

# expect: cuda-extension.cpu-extension-build
tokenizer_ops = load(name="fast_tokenize", sources=["csrc/fast_tokenize.cpp"], extra_cflags=["-O3", "-fopenmp"])

# expect: cuda-extension.cpu-extension-build
pack = load_inline(name="pack", cpp_sources=["torch::Tensor pack(torch::Tensor x) { return x; }"], functions=["pack"])

# ok: cuda-extension.cpu-extension-build
attn = load(name="attn", sources=["csrc/attn.cpp", "csrc/attn_kernel.cu"])

# ok: cuda-extension.cpu-extension-build
rope = load_inline(name="rope", cpp_sources=[""], cuda_sources=["__global__ void k() {}"])

# ok: cuda-extension.cpu-extension-build
settings = json.load(open("settings.json"))
