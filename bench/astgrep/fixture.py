# Each of the 10 rules in rules/ fires at least once here; bench/run.sh checks it before timing.
import torch
import triton
from torch.utils import cpp_extension

torch.backends.cudnn.benchmark = True
torch.cuda.synchronize()
x = torch.ones(3).cuda()
v = x.sum().item()
h = x.cpu()
l = x.tolist()
idx = torch.nonzero(x)
state = torch.load("ckpt.pt")
safe = torch.load("ckpt.pt", weights_only=True)
ext = cpp_extension.load_inline(name="ext", cpp_sources=["int f() { return 1; }"])


@triton.jit
def kernel(ptr):
    pass
