from .ppo import PPOTrainer
from .utils import masked_mean
