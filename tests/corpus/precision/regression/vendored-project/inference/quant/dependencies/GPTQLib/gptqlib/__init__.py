from .quantize import quantize_model
