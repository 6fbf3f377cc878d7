import torch

from mylib.triton_ops import rms_scale

# Importing this module compiles and runs the Triton kernel once (a warm-up at import time).
# expect: cuda-extension.lock-in-call
_WARM = rms_scale(torch.ones(1024))
