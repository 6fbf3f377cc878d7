from .loader import load_runtime, rms_norm
