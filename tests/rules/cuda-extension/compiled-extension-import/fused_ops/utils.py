def normalized_shape(dim):
    return (dim,) if isinstance(dim, int) else tuple(dim)
