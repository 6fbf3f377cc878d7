import os

from torch.utils.cpp_extension import load

FOLDER = os.path.dirname(os.path.abspath(__file__))
GEMV = load(name="gemv_ext", sources=[os.path.join(FOLDER, "gemv.cpp"), os.path.join(FOLDER, "gemv.cu")])
