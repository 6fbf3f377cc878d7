from .model import Model
from .trainer import Trainer
