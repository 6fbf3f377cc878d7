from . import autoregressive
