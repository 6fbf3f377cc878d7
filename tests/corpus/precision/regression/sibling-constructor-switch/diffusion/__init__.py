from .unet import Unet
from .gaussian import GaussianDiffusion
from .karras import KarrasDiffusion
