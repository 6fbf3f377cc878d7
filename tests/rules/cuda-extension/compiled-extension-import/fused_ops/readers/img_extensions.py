"""Image file-name extensions the readers accept (plain Python, not a compiled module)."""
_IMG_EXTENSIONS = (".png", ".jpg", ".jpeg")


def get_img_extensions():
    return set(_IMG_EXTENSIONS)


def is_img_extension(ext):
    return ext in _IMG_EXTENSIONS
