def normalized_shape(dim):
    return (dim,) if isinstance(dim, int) else tuple(dim)
# ok: cuda-extension.compiled-extension-import
from .readers import get_img_extensions, is_img_extension
