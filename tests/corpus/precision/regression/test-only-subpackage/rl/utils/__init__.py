from .dist import init_dist
