from .warmstart import spectral_init, pick_target_layers
