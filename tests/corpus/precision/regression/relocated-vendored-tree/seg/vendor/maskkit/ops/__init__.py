from .losses import lovasz_hinge
