"""Point-cloud voxelisation on the GPU."""
# expect: cuda-library.cupy-import
import cupy as cp
# expect: cuda-library.cupy-import
from cupyx.scipy import ndimage

try:
    # ok: cuda-library.cupy-import
    import cupy
except ImportError:
    cupy = None

# ok: cuda-library.cupy-import
import numpy as np


def voxelize(points, grid):
    pts = cp.asarray(points)
    idx = cp.floor(pts / grid).astype(cp.int32)
    return cp.asnumpy(cp.unique(idx, axis=0))
