"""File readers; the extension helpers are re-exported from a submodule with a star import."""
from .img_extensions import *
from .reader_factory import create_reader
